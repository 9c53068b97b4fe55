// The web client's timings and keys, shared with the server where it draws pages for it:
// query keys of server-rendered pages, the page cookie, storage keys, toasts, the QR version.
// One topic of the catalog: the rally's fixed content and business constants, defined once;
// the server's Postgres enums, the zod contracts and the web UI read them from here.

export const REQUEST_TIMEOUT_MS = 15_000;
export const VERIFY_POLL_INTERVAL_MS = 30_000;
export const REDIRECT_DELAY_MS = 2_000;
export const SUCCESS_DIALOG_MS = 4_000;
export const SHARE_COPY_CONFIRM_MS = 2_000;
export const COMMENTS_PAGE_SIZE = 20;
/**
 * The web client's TanStack Query key for a rider's public profile. The server renders
 * /user/{id} with the profile's answer under this key, inlined in the page, so the
 * hydrating client finds it there and asks nothing again.
 */
export const publicProfileQueryKey = (id: string) => ['public-profile', id] as const;
/**
 * One query's answer a server-rendered page was drawn with, inlined in its HTML for the web
 * client's query cache: the contract between the server (lib/page-renderer.ts) and the web
 * renderer (entry-server.tsx, lib/query-seed.ts).
 */
export interface SeededQuery {
  queryKey: readonly unknown[];
  data: unknown;
}
/**
 * My Profile's queries that the server answers when it renders /me for a signed-in rider
 * (modules/profiles/my-profile-page.routes.ts), under the keys the web client asks with.
 */
export const MY_PROFILE_QUERY_KEYS = {
  tshirt: ['my-tshirt-size'],
  gear: ['my-gear-sizes'],
  /**
   * The event settings (GET /api/settings/event): the SOS fallback's hotline is in the page
   * itself, so a phone whose signal goes as the page opens still offers to call it.
   */
  eventSettings: ['settings', 'event'],
} as const;
/**
 * The key of the signed-in user's record in a page the server rendered for them: the session
 * it checked (its cookie, SESSION_COOKIE), which the client adopts instead of showing the
 * checking spinner first (its own check still follows).
 */
export const SESSION_SEED_KEY = ['session'] as const;
/**
 * The cookie that lets the server render a signed-in rider's own page (/me): set by the server
 * only (HttpOnly, Path=/me and /profile), holding a credential that opens that page alone, not
 * the bearer token (apps/server/src/lib/session-cookie.ts). The API never reads it.
 */
export const SESSION_COOKIE = 'rally_session';
/**
 * Its script-readable mark, set and cleared by the server with it: the client deletes the mark
 * on sign-out, offline too, and the server renders the page only when both come.
 */
export const SESSION_MARK_COOKIE = 'rally_session_mark';
export const TOAST_LIMIT = 20;
export const TOAST_ERROR_MS = 4_000;
export const TOAST_SUCCESS_MS = 2_000;

export const STORAGE_KEYS = { token: 'authToken', user: 'userData', verificationCode: 'verificationCode' } as const;

/**
 * Smallest QR version for rider codes. At version 1 (21x21) a centre logo of 25% damages
 * up to ~8 of 26 codewords, the very limit of level H, and some codes stopped scanning;
 * from version 5 the damage spreads over four interleaved blocks with room to spare.
 */
export const RIDER_QR_MIN_VERSION = 5;
