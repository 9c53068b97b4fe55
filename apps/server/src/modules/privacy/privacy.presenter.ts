import { CONSENT_PURPOSES, type ConsentPurpose, type ConsentScreen } from '@rally/shared/catalog/privacy';
import type { ConsentRecord, MyConsents, PrivacyNotice } from '@rally/shared/contracts/privacy';
import type { consents } from '../../db/schema/privacy';
import type { NoticeRow, TextOrigin } from './notice.service';

type ConsentRow = typeof consents.$inferSelect;

export function presentNotice(row: NoticeRow, origins: { privacy: TextOrigin; terms: TextOrigin }): PrivacyNotice {
  return {
    version: row.version,
    publishedAt: row.publishedAt.toISOString(),
    privacy: {
      version: origins.privacy.version,
      publishedAt: origins.privacy.publishedAt.toISOString(),
      text: row.privacyText,
    },
    terms: {
      version: origins.terms.version,
      publishedAt: origins.terms.publishedAt.toISOString(),
      text: row.termsText,
    },
  };
}

export function presentConsentRecord(row: ConsentRow): ConsentRecord {
  return {
    purpose: row.purpose as ConsentRecord['purpose'],
    given: row.given,
    version: row.version,
    screen: row.screen as ConsentScreen,
    at: row.at.toISOString(),
  };
}

/**
 * A rider's consents: `history` newest first (as read), the notice accepted last, and each
 * purpose as in effect (`effect`, consentInEffectSql) with the rider's last choice of it.
 */
export function presentMyConsents(
  currentVersion: number,
  history: ConsentRow[],
  effect: Record<ConsentPurpose, boolean>,
): MyConsents {
  const accepted = history.find((r) => r.purpose === 'notice' && r.given && Number.isInteger(Number(r.version)));
  const acceptedVersion = accepted ? Number(accepted.version) : null;
  return {
    notice: {
      currentVersion,
      accepted: accepted
        ? {
            version: acceptedVersion as number,
            at: accepted.at.toISOString(),
            screen: accepted.screen as ConsentScreen,
          }
        : null,
      needed: acceptedVersion === null || acceptedVersion < currentVersion,
    },
    purposes: CONSENT_PURPOSES.map((purpose) => {
      const last = history.find((r) => r.purpose === purpose);
      return {
        purpose,
        given: effect[purpose] === true,
        chosen: last !== undefined,
        at: last?.at.toISOString() ?? null,
        screen: (last?.screen as ConsentScreen | undefined) ?? null,
      };
    }),
    history: history.map(presentConsentRecord),
  };
}
