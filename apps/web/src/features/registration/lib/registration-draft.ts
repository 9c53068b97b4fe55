// An unfinished registration kept on the phone. Riders pay in the GCash or bank app in the
// middle of the form, and mobile browsers discard a background tab to free memory: without
// a copy on the device the rider comes back to an empty form and a lost photo and receipt.
// The draft lives in its own small IndexedDB database rather than the scanner's offline
// one, so that a visitor's phone never creates the roster and scan stores, and neither
// schema's version depends on the other (lib/drafts-db.ts, which sign-out clears of the
// accounts' /join entries). The password never enters it.
import { draftsDb, REGISTRATION_DRAFT_SLOT } from '../../../lib/drafts-db';
import { EMPTY_REGISTRATION, type RegistrationFields } from './registration-form';

/** Every field but the two password boxes. */
export type DraftFields = Omit<RegistrationFields, 'password' | 'confirmPassword'>;

interface StoredFile {
  blob: Blob;
  name: string;
  type: string;
}

interface StoredDraft {
  fields: DraftFields;
  agreed: boolean;
  profileImage: StoredFile | null;
  receipt: StoredFile | null;
  savedAt: string;
}

export interface RegistrationDraft {
  fields: DraftFields;
  agreed: boolean;
  profileImage: File | null;
  receipt: File | null;
}

/** Copies only the keys a draft may hold, so a password can never slip in with a spread. */
export function draftFields(fields: RegistrationFields): DraftFields {
  const { password: _password, confirmPassword: _confirm, ...rest } = fields;
  return rest;
}

/** Whether there is anything worth keeping (a visit that typed nothing leaves no draft). */
export function isEmptyDraft(draft: RegistrationDraft): boolean {
  const empty = draftFields(EMPTY_REGISTRATION);
  return (
    !draft.agreed &&
    !draft.profileImage &&
    !draft.receipt &&
    (Object.keys(empty) as Array<keyof DraftFields>).every((k) => draft.fields[k] === empty[k])
  );
}

const toStored = (file: File | null): StoredFile | null =>
  file ? { blob: file.slice(0, file.size, file.type), name: file.name, type: file.type } : null;
const fromStored = (file: StoredFile | null | undefined): File | null =>
  file ? new File([file.blob], file.name, { type: file.type }) : null;

export async function saveDraft(draft: RegistrationDraft, slot = REGISTRATION_DRAFT_SLOT): Promise<void> {
  const db = await draftsDb();
  if (isEmptyDraft(draft)) {
    await db.delete('drafts', slot);
    return;
  }
  await db.put(
    'drafts',
    {
      fields: draftFields({ ...EMPTY_REGISTRATION, ...draft.fields }),
      agreed: draft.agreed,
      profileImage: toStored(draft.profileImage),
      receipt: toStored(draft.receipt),
      savedAt: new Date().toISOString(),
    },
    slot,
  );
}

/** The kept draft, or null; a draft from an older shape fills its missing fields with blanks. */
export async function loadDraft(slot = REGISTRATION_DRAFT_SLOT): Promise<RegistrationDraft | null> {
  const stored = (await (await draftsDb()).get('drafts', slot)) as StoredDraft | undefined;
  if (!stored) return null;
  const draft: RegistrationDraft = {
    fields: draftFields({ ...EMPTY_REGISTRATION, ...stored.fields }),
    agreed: stored.agreed === true,
    profileImage: fromStored(stored.profileImage),
    receipt: fromStored(stored.receipt),
  };
  return isEmptyDraft(draft) ? null : draft;
}

export async function clearDraft(slot = REGISTRATION_DRAFT_SLOT): Promise<void> {
  await (await draftsDb()).delete('drafts', slot);
}
