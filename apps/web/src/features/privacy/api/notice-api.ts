// The privacy notice and the rider's consents (DESIGN.md §12), as every screen asks for them:
// the /privacy page, the registration and Join forms, the sign-in gate, My Profile and the
// console's editor share these queries, so one answer serves them all.
import type { ConsentPurpose } from '@rally/shared/catalog/privacy';
import type { MyConsents, PrivacyNotice } from '@rally/shared/contracts/privacy';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, call, client, publicClient } from '../../../lib/api-client';

export const noticeKeys = {
  all: ['privacy-notice'] as const,
  version: (version: number | null) => ['privacy-notice', version ?? 'current'] as const,
};

/** The current notice (`version` null) or an earlier one. Public: asked without the session. */
export const noticeQuery = (version: number | null = null) =>
  queryOptions({
    queryKey: noticeKeys.version(version),
    queryFn: async (): Promise<PrivacyNotice> =>
      (
        await call(
          publicClient.GET('/api/privacy/notice', {
            params: { query: version === null ? {} : { version } },
          }),
        )
      ).data,
    staleTime: 5 * 60_000,
  });

/** The notice the forms show and name in `consentVersion`: undefined until (or unless) it loads. */
export function useCurrentNotice() {
  return useQuery(noticeQuery(null));
}

/** Per account: a phone shared by two riders never shows one the other's consents. */
export const myConsentsKey = (userId: string) => ['my-consents', userId] as const;

export const myConsentsQuery = (userId: string) =>
  queryOptions({
    queryKey: myConsentsKey(userId),
    queryFn: async (): Promise<MyConsents> => (await call(client.GET('/api/my/consents'))).data,
    staleTime: 60_000,
  });

/** Accepting the current notice (the sign-in gate): the consents as they are now. */
export async function acceptNotice(version: number): Promise<MyConsents> {
  return (await call(client.PUT('/api/my/consents/notice', { body: { version } }))).data;
}

/** Giving or withdrawing an optional purpose; giving tracking names the tracking consent's version read. */
export async function putConsent(purpose: ConsentPurpose, given: boolean, version?: string): Promise<MyConsents> {
  const answer = await call(
    client.PUT('/api/my/consents/{purpose}', {
      params: { path: { purpose } },
      body: version === undefined ? { given } : { given, version },
    }),
  );
  return answer.data;
}

/** Publishing both texts as the next version (manage_event). */
export async function publishNotice(privacyText: string, termsText: string): Promise<PrivacyNotice> {
  return (await call(client.PUT('/api/admin/privacy/notice', { body: { privacyText, termsText } }))).data;
}

/** The server refused a registration, entry or acceptance: the notice it names is no longer current. */
export function isConsentRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && codeOf(error) === 'CONSENT_REQUIRED';
}

export function codeOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const code = (error.body as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const CONSENT_CHANGED_MESSAGE = 'The privacy notice changed. Read it again and agree to continue.';
