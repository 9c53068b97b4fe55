// What a rider's data export holds (DESIGN.md §12): every table that names the person, read
// by the key naming them, grouped into the kinds a rider recognises (one JSON file each).
// The columns come from users/personal-data.ts, which personal-data.test.ts keeps equal to
// the schema: a new column is exported without anyone remembering to add it here, unless it
// is named below as a secret. data-export.test.ts seeds a rider into every table it can and
// fails when a table holding a row of theirs has no rows in the export.
import { type SQL, sql } from 'drizzle-orm';

export interface Section {
  table: string;
  /** Rows of the person `u` (whose phone is typed as one of `phones`), the table aliased `t`. */
  where: (u: string, phones: string[]) => SQL;
  /** Columns never exported: credentials, stored bytes, another person's address. */
  secret?: string[];
  /** Row order (columns of the table). */
  order: string[];
  /** The columns the summary's table shows (the JSON has them all); none: a count only. */
  main: string[];
}

export interface Kind {
  /** The JSON file's name, without `.json`. */
  file: string;
  title: string;
  description: string;
  sections: Section[];
}

const by = (column: string) => (u: string) => sql`t.${sql.identifier(column)} = ${u}`;
const ownFiles = (u: string) => sql`t.file_id in (select id from files where user_id = ${u})`;
const ownIncidents = (u: string) => sql`select id from incidents where rider_id = ${u}`;
const ownFollowers = (u: string) => sql`select id from followers where rider_id = ${u}`;

export const KINDS: Kind[] = [
  {
    file: 'account',
    title: 'Your account',
    description: 'Your details as you gave them, your notification choices and the devices that receive them.',
    sections: [
      {
        table: 'users',
        where: by('id'),
        secret: ['password_hash'],
        order: ['id'],
        main: ['first_name', 'last_name', 'kit_name', 'email', 'phone_number', 'birthdate', 'role', 'created_at'],
      },
      { table: 'notification_settings', where: by('user_id'), order: ['user_id'], main: ['email', 'push', 'sms'] },
      { table: 'sms_pins', where: by('user_id'), secret: ['pin_hash'], order: ['user_id'], main: ['updated_at'] },
      {
        table: 'push_subscriptions',
        where: by('user_id'),
        // The endpoint and its keys let anyone push to the device: a credential, not data about you.
        secret: ['endpoint', 'p256dh', 'auth'],
        order: ['created_at'],
        main: ['created_at'],
      },
    ],
  },
  {
    file: 'entries',
    title: 'Your entries',
    description:
      'Every edition you entered: your entry, its verification, your kit and ID card, and decisions on your ride.',
    sections: [
      {
        table: 'entries',
        where: by('user_id'),
        order: ['created_at'],
        main: ['edition', 'rider_number', 'category', 'status', 'result_state', 'created_at'],
      },
      {
        table: 'verification_history',
        where: by('user_id'),
        order: ['created_at'],
        main: ['edition', 'action', 'notes', 'admin_first_name', 'admin_last_name', 'created_at'],
      },
      {
        table: 'kit_tracking',
        where: by('user_id'),
        order: ['updated_at'],
        main: ['edition', 'tshirt_given', 'vest_given', 'finisher_sleeve_given', 'updated_at'],
      },
      { table: 'id_card_prints', where: by('user_id'), order: ['printed_at'], main: ['edition', 'printed_at'] },
      {
        table: 'course_decisions',
        where: by('rider_id'),
        order: ['decided_at'],
        main: ['edition', 'day', 'decision', 'reason', 'decided_by_name', 'decided_at'],
      },
    ],
  },
  {
    file: 'receipts',
    title: 'Your receipts and photos',
    description: 'The files you uploaded (their bytes are in the files/ folder) and what was read from your receipts.',
    sections: [
      {
        table: 'files',
        where: by('user_id'),
        // The bytes are in files/; where the store keeps them and the image's fingerprint are the install's.
        secret: ['data', 'storage_key', 'phash'],
        order: ['created_at'],
        main: ['kind', 'mime_type', 'size_bytes', 'original_name', 'superseded_at', 'created_at', 'zip_path'],
      },
      {
        table: 'receipt_readings',
        where: ownFiles,
        order: ['read_at'],
        main: ['reference_number', 'amount_centavos', 'paid_at', 'recipient', 'status'],
      },
      { table: 'file_jobs', where: ownFiles, order: ['created_at'], main: ['kind', 'status', 'created_at'] },
    ],
  },
  {
    file: 'passages',
    title: 'Your passages',
    description: 'Every scan of your code at a checkpoint, in every edition.',
    sections: [
      {
        table: 'scans',
        where: by('rider_id'),
        order: ['scanned_at'],
        main: ['edition', 'station', 'rider_number', 'scanned_at', 'status', 'reason'],
      },
    ],
  },
  {
    file: 'incidents',
    title: 'Your incidents and SOS calls',
    description: 'Incidents about you (SOS calls you raised and alerts about your ride), and how they were handled.',
    sections: [
      {
        table: 'incidents',
        where: by('rider_id'),
        order: ['created_at'],
        main: ['edition', 'kind', 'status', 'source', 'note', 'created_at', 'resolved_at'],
      },
      {
        table: 'sos_calls',
        where: (u) => sql`(t.rider_id = ${u} or t.incident_id in (${ownIncidents(u)}))`,
        order: ['created_at'],
        main: ['kind', 'note', 'created_at'],
      },
      {
        table: 'incident_escalations',
        where: (u) => sql`t.incident_id in (${ownIncidents(u)})`,
        order: ['due_at'],
        main: ['round', 'due_at'],
      },
      {
        table: 'sos_abuse_marks',
        where: by('user_id'),
        order: ['marked_at'],
        main: ['edition', 'note', 'marked_at'],
      },
    ],
  },
  {
    file: 'tracking',
    title: 'Your live tracking',
    description: 'Whether you shared your position, and every position your phone sent.',
    sections: [
      {
        table: 'trackers',
        where: by('user_id'),
        // The device's id lets anyone send positions as you: a credential.
        secret: ['tracking_id'],
        order: ['created_at'],
        main: ['edition', 'enabled', 'consented_at', 'withdrawn_at', 'last_at'],
      },
      { table: 'positions', where: by('user_id'), order: ['at'], main: [] },
    ],
  },
  {
    file: 'messages',
    title: 'Messages',
    description:
      'Every email, push notification and text sent to you, what your followers were sent about you, and texts you sent in.',
    sections: [
      {
        table: 'outbox_messages',
        where: (u) => sql`(t.user_id = ${u} or t.follower_id in (${ownFollowers(u)}))`,
        order: ['created_at'],
        main: ['channel', 'template', 'status', 'created_at', 'sent_at'],
      },
      {
        table: 'inbound_texts',
        // Texts name no account: theirs are those from their phone number, however typed.
        where: (_u, phones) =>
          phones.length === 0
            ? sql`false`
            : sql`t.phone_number in (${sql.join(
                phones.map((p) => sql`${p}`),
                sql`, `,
              )})`,
        order: ['received_at'],
        main: ['message', 'outcome', 'received_at'],
      },
    ],
  },
  {
    file: 'community',
    title: 'Followers, fires and comments',
    description:
      'Who follows your ride (their addresses shortened: they are theirs), the fires you gave and got, and comments by you or on your profile.',
    sections: [
      {
        table: 'followers',
        where: by('rider_id'),
        secret: ['token_hash', 'push_subscription_id'],
        order: ['created_at'],
        main: ['email', 'confirmed_at', 'created_at'],
      },
      {
        table: 'fires',
        where: (u) => sql`(t.giver_id = ${u} or t.receiver_id = ${u})`,
        order: ['created_at'],
        main: ['direction', 'created_at'],
      },
      {
        table: 'comments',
        where: (u) => sql`(t.author_id = ${u} or t.target_user_id = ${u})`,
        order: ['created_at'],
        main: ['direction', 'text', 'created_at'],
      },
    ],
  },
  {
    file: 'consents',
    title: 'Your consents and requests',
    description: 'Every consent you gave or withdrew, your erasure requests and your data exports.',
    sections: [
      {
        table: 'consents',
        where: by('user_id'),
        order: ['at'],
        main: ['purpose', 'given', 'version', 'screen', 'at'],
      },
      {
        table: 'erasure_requests',
        where: by('user_id'),
        order: ['requested_at'],
        main: ['status', 'note', 'requested_at', 'decided_at', 'reason'],
      },
      {
        table: 'data_exports',
        where: by('user_id'),
        secret: ['zip'],
        order: ['created_at'],
        main: ['status', 'bytes', 'created_at', 'ready_at', 'expires_at'],
      },
    ],
  },
  {
    file: 'data_access',
    title: 'Who read your sensitive details',
    description:
      'Every time a staff member was shown your medical notes, emergency contact, birthdate, licence or position.',
    sections: [
      {
        table: 'data_access',
        where: by('rider_id'),
        // The address a staff member read from is theirs.
        secret: ['ip'],
        order: ['at'],
        main: ['at', 'staff_name', 'fields', 'source'],
      },
    ],
  },
  {
    file: 'logs',
    title: 'Logs about you',
    description: 'The activity log, your sign-ins and your sessions, and password resets.',
    sections: [
      {
        table: 'activities',
        where: (u) => sql`(t.user_id = ${u} or t.actor_id = ${u})`,
        order: ['created_at'],
        main: ['type', 'description', 'actor_name', 'created_at'],
      },
      {
        table: 'login_activities',
        where: by('user_id'),
        order: ['created_at'],
        main: ['success', 'failure_reason', 'ip', 'created_at'],
      },
      {
        table: 'sessions',
        where: by('user_id'),
        secret: ['token_hash'],
        order: ['created_at'],
        main: ['ip', 'user_agent', 'created_at', 'expires_at', 'revoked_at'],
      },
      {
        table: 'password_resets',
        where: by('user_id'),
        secret: ['token_hash'],
        order: ['created_at'],
        main: ['created_at', 'expires_at', 'used_at', 'voided_at'],
      },
    ],
  },
];

export type ExportedRow = Record<string, unknown>;

/** Everything about one person, as the ZIP's files are written from it. */
export interface ExportContent {
  person: { id: string; name: string; email: string | null };
  generatedAt: Date;
  kinds: Array<{ kind: Kind; tables: Record<string, ExportedRow[]> }>;
  /** `table.column` → how many rows name the person as the staff member who acted. */
  staffWork: Record<string, number>;
  files: Array<{ path: string; bytes: Uint8Array }>;
}
