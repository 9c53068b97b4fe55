// Which riders' sensitive data an answer carries (DESIGN.md §12), read from the answer itself:
// whatever route or export produced it, a key of catalog/privacy.ts SENSITIVE_KEYS holding a
// value is a read of that kind. So a new screen that shows a birthdate is logged without
// anyone remembering to log it; data-access.test.ts reads every staff answer to prove it.
import { SENSITIVE_KEYS, type SensitiveKind } from '@rally/shared/catalog/privacy';

/** Keys naming the rider an object is about, before its own `id`. */
const SUBJECT_KEYS = ['userId', 'riderId', 'user_id', 'rider_id'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

const carries = (value: unknown) => value !== null && value !== undefined && value !== '';

/**
 * A coordinate is a rider's position when it is a fix (it has its time, `at`) or sits on a
 * row naming its rider (an export's incident); a station's or a route's point is neither.
 */
const isFix = (obj: Record<string, unknown>) =>
  typeof obj.at === 'string' || obj.at instanceof Date || SUBJECT_KEYS.some((k) => typeof obj[k] === 'string');

function ownKinds(obj: Record<string, unknown>): SensitiveKind[] {
  const kinds: SensitiveKind[] = [];
  for (const [key, value] of Object.entries(obj)) {
    const kind = SENSITIVE_KEYS[key];
    if (!kind || !carries(value) || kinds.includes(kind)) continue;
    if (kind === 'position' && !isFix(obj)) continue;
    kinds.push(kind);
  }
  return kinds;
}

/**
 * The rider an object is about: a key naming them (`userId`, `riderId`), or a nested
 * `rider: { id }` (an incident), or its own `id` when the object itself carries sensitive
 * fields (a user's record); otherwise the rider of the object it sits in (a track's points,
 * an incident's position and contact).
 */
function subjectOf(obj: Record<string, unknown>, inherited: string | null, kinds: SensitiveKind[]): string | null {
  for (const key of SUBJECT_KEYS) {
    const value = obj[key];
    if (typeof value === 'string' && value) return value;
  }
  const rider = obj.rider;
  if (isRecord(rider) && typeof rider.id === 'string') return rider.id;
  if (kinds.length > 0 && typeof obj.id === 'string' && inherited === null) return obj.id;
  return inherited;
}

export interface SensitiveReads {
  /** Rider id → the kinds read about them. */
  byRider: Map<string, Set<SensitiveKind>>;
  /** Kinds found with no rider to name (a bug in the answer's shape, logged by the caller). */
  unnamed: Set<SensitiveKind>;
}

/** Every rider whose sensitive fields `answer` (a reply's payload, an export's rows) carries. */
export function sensitiveReadsIn(answer: unknown): SensitiveReads {
  const reads: SensitiveReads = { byRider: new Map(), unnamed: new Set() };
  const visit = (value: unknown, inherited: string | null, depth: number) => {
    if (depth > 12) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, inherited, depth + 1);
      return;
    }
    if (!isRecord(value)) return;
    const kinds = ownKinds(value);
    const subject = subjectOf(value, inherited, kinds);
    if (kinds.length > 0) {
      if (subject === null) for (const k of kinds) reads.unnamed.add(k);
      else {
        const set = reads.byRider.get(subject) ?? new Set<SensitiveKind>();
        for (const k of kinds) set.add(k);
        reads.byRider.set(subject, set);
      }
    }
    for (const child of Object.values(value))
      if (typeof child === 'object' && child !== null) visit(child, subject, depth + 1);
  };
  visit(answer, null, 0);
  return reads;
}
