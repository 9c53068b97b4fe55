// Every table, every column that holds personal data, and what deleting the account does to
// it (DESIGN.md §9 and §12): the one place a deletion's rules are written. `deleteUser`
// applies them (forget-contact.ts), and
// personal-data.test.ts fails when a table or a column exists that is not listed here, or
// when a listed rule is not what the database does.
//
// The rules, for a column of a row that stays after the account goes:
// - `goes`: the row is the person's and goes with the account (`goesWith` names its key,
//   which cascades), in every edition: an entry of a past one goes too.
// - `reference`: another account's id (the staff member who acted): the key sets it null
//   when that account goes.
// - `cleared`: set to null (or the placeholder) by the deletion.
// - `scrubbed`: rewritten with the person's email, phone, address and codes cut out.
// - `kept`: kept on purpose, with the reason: audit snapshots of who did what, and logs
//   that are the install's own and expire by their own rule.

export type PersonalRule = 'goes' | 'reference' | 'cleared' | 'scrubbed' | { kept: string };

export interface TableRule {
  /** The key naming the person (or the parent) the whole row goes with: it cascades. */
  goesWith?: string[];
  /** Columns holding personal data, with their rule. */
  personal: Record<string, PersonalRule>;
  /** Every other column: no personal data. */
  other: string[];
}

const AUDIT = { kept: 'the audit trail keeps who did what, by the name they had' };
const LOGIN_LOG = { kept: 'the security log of sign-ins is the install’s; its email is replaced' };
const EXPIRES = { kept: 'a counter that expires within the hour' };
const STAFF_NOTE = { kept: 'a staff member’s note on the record' };
const STATEMENT = { kept: 'the organiser’s bank statement, as uploaded (no account is linked to it)' };

export const PERSONAL_DATA: Record<string, TableRule> = {
  users: {
    goesWith: ['id'],
    personal: Object.fromEntries(
      [
        'email',
        'password_hash',
        'first_name',
        'last_name',
        'kit_name',
        'phone_number',
        'address',
        'gender',
        'birthdate',
        'motorcycle_model',
        'club_name',
        'emergency_contact_name',
        'emergency_contact_number',
        'blood_type',
        'allergies',
        'medical_conditions',
        'last_login',
      ].map((c) => [c, 'goes' as const]),
    ),
    other: ['id', 'role', 'status', 'created_at', 'updated_at'],
  },
  activities: {
    personal: {
      user_id: 'reference',
      actor_id: 'reference',
      user_name: AUDIT,
      actor_name: AUDIT,
      description: 'scrubbed',
      details: 'scrubbed',
      location: 'scrubbed',
      metadata: 'scrubbed',
    },
    other: ['id', 'type', 'priority', 'created_at'],
  },
  announcements: {
    personal: { author_id: 'reference' },
    other: ['id', 'title', 'content', 'is_active', 'created_at', 'updated_at'],
  },
  comments: {
    goesWith: ['author_id', 'target_user_id'],
    personal: { author_id: 'goes', target_user_id: 'goes', text: 'goes' },
    other: ['id', 'created_at'],
  },
  course_decisions: {
    goesWith: ['rider_id'],
    personal: { rider_id: 'goes', note: 'goes', decided_by: 'reference', decided_by_name: AUDIT },
    other: ['id', 'day', 'decision', 'reason', 'decided_at', 'recorded_at', 'edition_id'],
  },
  course_rules: {
    personal: { updated_by: 'reference' },
    other: ['route_id', 'overdue_after_minutes', 'stations', 'updated_at', 'edition_id'],
  },
  entries: {
    // The person's entry in each edition, past ones included: it goes with the account.
    goesWith: ['user_id'],
    personal: {
      user_id: 'goes',
      verification_code: 'goes',
      rider_number: 'goes',
      rider_code: 'goes',
      kit_name: 'goes',
      motorcycle_model: 'goes',
      payment_method: 'goes',
      payment_amount: 'goes',
      tshirt_size: 'goes',
      custom_tshirt_size: 'goes',
      finisher_sleeve_size: 'goes',
      custom_finisher_sleeve_size: 'goes',
      vest_size: 'goes',
      custom_vest_size: 'goes',
      notes: 'goes',
      verified_by: 'reference',
    },
    other: [
      'id',
      'edition_id',
      'status',
      'verified_at',
      'category',
      'tshirt_submitted_at',
      'gear_submitted_at',
      'bike_check_status',
      'rider_kit_status',
      'checkpoints',
      'result_state',
      'finished_at',
      'elapsed_ms',
      'created_at',
      'updated_at',
    ],
  },
  data_access: {
    // Who looked at the rider's sensitive fields: the rider's lines go with them; a staff
    // member's stay, by the name they had, as any audit line does.
    goesWith: ['rider_id'],
    personal: {
      rider_id: 'goes',
      staff_id: 'reference',
      staff_name: AUDIT,
      ip: { kept: 'the address a staff member read from: the breach notice is worked out from it' },
    },
    other: ['id', 'fields', 'source', 'at', 'reason'],
  },
  consents: {
    // Consent on record is the person's: it goes with them (nothing left to prove consent for).
    goesWith: ['user_id'],
    personal: { user_id: 'goes' },
    other: ['id', 'purpose', 'given', 'version', 'screen', 'at'],
  },
  data_exports: {
    // The rider's data, packed for them: it goes with them.
    goesWith: ['user_id'],
    personal: { user_id: 'goes', zip: 'goes', requested_by: 'reference' },
    other: ['id', 'status', 'bytes', 'error', 'created_at', 'ready_at', 'expires_at'],
  },
  erasure_requests: {
    // What remains of an erasure is a line saying it happened: the account's key sets null,
    // and the deletion clears the rider's note.
    personal: { user_id: 'reference', note: 'cleared', decided_by: 'reference', decided_by_name: AUDIT },
    other: ['id', 'status', 'requested_at', 'decided_at', 'reason'],
  },
  privacy_notices: {
    personal: { published_by: 'reference', published_by_name: AUDIT },
    other: ['version', 'privacy_text', 'terms_text', 'published_at'],
  },
  retention_sweeps: {
    personal: {},
    other: ['edition_id', 'kind', 'ran_at', 'rows'],
  },
  editions: {
    personal: { updated_by: 'reference' },
    other: [
      'id',
      'name',
      'year',
      'starts_on',
      'ends_on',
      'registration_opens_at',
      'registration_closes_at',
      'numbers_held_until',
      'hotline',
      'current',
      'copied_from',
      'created_at',
      'updated_at',
      'prices',
      'closed_at',
      'retention',
    ],
  },
  file_jobs: {
    goesWith: ['file_id'],
    personal: {},
    other: [
      'id',
      'file_id',
      'kind',
      'status',
      'attempts',
      'next_attempt_at',
      'locked_until',
      'locked_by',
      'last_error',
      'created_at',
      'finished_at',
    ],
  },
  files: {
    goesWith: ['user_id'],
    personal: {
      user_id: 'goes',
      data: 'goes',
      original_name: 'goes',
      storage_key: 'goes',
      sha256: 'goes',
      phash: 'goes',
    },
    other: ['id', 'kind', 'mime_type', 'size_bytes', 'width', 'height', 'created_at', 'superseded_at', 'status'],
  },
  fires: {
    goesWith: ['giver_id', 'receiver_id'],
    personal: { giver_id: 'goes', receiver_id: 'goes' },
    other: ['created_at'],
  },
  follow_confirm_sends: {
    personal: { mailbox_hash: { kept: 'a hash of a follower’s mailbox for the sending cap, linked to no account' } },
    other: ['id', 'sent_at'],
  },
  followers: {
    goesWith: ['rider_id'],
    personal: { rider_id: 'goes', email: 'goes', push_subscription_id: 'goes', token_hash: 'goes' },
    other: ['id', 'confirmed_at', 'created_at'],
  },
  id_card_prints: {
    goesWith: ['user_id'],
    personal: { user_id: 'goes', notes: 'goes', printed_by: 'reference' },
    other: ['id', 'printed_at', 'edition_id'],
  },
  inbound_texts: {
    personal: { phone_number: 'cleared', message: 'cleared' },
    other: ['webhook_id', 'received_at', 'outcome', 'created_at'],
  },
  incident_escalations: {
    goesWith: ['incident_id'],
    personal: {},
    other: ['incident_id', 'round', 'due_at', 'locked_until'],
  },
  incidents: {
    goesWith: ['rider_id'],
    personal: {
      rider_id: 'goes',
      note: 'goes',
      lat: 'goes',
      lng: 'goes',
      accuracy: 'goes',
      position_at: 'goes',
      resolution_note: 'goes',
      reported_by: 'reference',
      acknowledged_by: 'reference',
      assigned_to: 'reference',
      resolved_by: 'reference',
    },
    other: [
      'id',
      'kind',
      'status',
      'source',
      'last_station_id',
      'last_station_name',
      'last_seen_at',
      'acknowledged_at',
      'assigned_at',
      'resolved_at',
      'created_at',
      'updated_at',
      'call_count',
      'muted',
      'edition_id',
    ],
  },
  kit_tracking: {
    goesWith: ['user_id'],
    personal: {
      user_id: 'goes',
      notes: 'goes',
      tshirt_given_by: 'reference',
      vest_given_by: 'reference',
      finisher_sleeve_given_by: 'reference',
      updated_by: 'reference',
    },
    other: [
      'tshirt_given',
      'tshirt_given_at',
      'vest_given',
      'vest_given_at',
      'finisher_sleeve_given',
      'finisher_sleeve_given_at',
      'updated_at',
      'edition_id',
    ],
  },
  login_activities: {
    personal: { user_id: 'reference', email: 'cleared', ip: LOGIN_LOG, user_agent: LOGIN_LOG },
    other: ['id', 'success', 'failure_reason', 'created_at'],
  },
  login_throttle: { personal: { key: EXPIRES }, other: ['failures', 'window_start'] },
  notification_settings: {
    goesWith: ['user_id'],
    personal: { user_id: 'goes' },
    other: ['email', 'push', 'sms', 'on_call', 'updated_at'],
  },
  outbox_messages: {
    goesWith: ['user_id', 'follower_id'],
    personal: { user_id: 'goes', follower_id: 'goes', address: 'goes', data: 'goes', provider_answer: 'goes' },
    other: [
      'id',
      'channel',
      'template',
      'incident_id',
      'status',
      'attempts',
      'next_attempt_at',
      'locked_until',
      'locked_by',
      'created_at',
      'sent_at',
    ],
  },
  password_resets: {
    goesWith: ['user_id'],
    personal: { user_id: 'goes', token_hash: 'goes', created_by: 'reference' },
    other: ['id', 'created_at', 'expires_at', 'used_at', 'voided_at'],
  },
  payment_statement_rows: {
    personal: { reference_number: STATEMENT, description: STATEMENT },
    other: ['id', 'statement_id', 'line', 'amount_centavos', 'paid_at'],
  },
  payment_statements: {
    personal: { uploaded_by: 'reference' },
    other: [
      'id',
      'edition_id',
      'preset',
      'original_name',
      'mapping',
      'row_count',
      'covers_from',
      'covers_to',
      'created_at',
    ],
  },
  positions: {
    goesWith: ['user_id'],
    personal: Object.fromEntries(
      ['user_id', 'at', 'lat', 'lng', 'speed', 'bearing', 'altitude', 'accuracy', 'battery', 'charging'].map((c) => [
        c,
        'goes' as const,
      ]),
    ),
    other: ['edition_id', 'source', 'received_at'],
  },
  push_subscriptions: {
    goesWith: ['user_id'],
    personal: { user_id: 'goes', endpoint: 'goes', p256dh: 'goes', auth: 'goes' },
    other: ['id', 'created_at', 'session_id'],
  },
  rate_limit_hits: { personal: { key: EXPIRES }, other: ['hits', 'window_ends'] },
  receipt_readings: {
    goesWith: ['file_id'],
    personal: {
      reference_number: 'goes',
      amount_centavos: 'goes',
      paid_at: 'goes',
      recipient: 'goes',
      text: 'goes',
      corrected_by: 'reference',
    },
    other: ['file_id', 'status', 'confidence', 'read_at', 'corrected_at'],
  },
  route_tracks: {
    personal: { uploaded_by: 'reference' },
    other: ['edition_id', 'trial', 'name', 'points', 'drawn', 'length_m', 'file_name', 'uploaded_at'],
  },
  scans: {
    personal: {
      rider_id: 'reference',
      rider_code: 'cleared',
      recorded_by: 'reference',
      submitted_by: 'reference',
      reviewed_by: 'reference',
      review_note: STAFF_NOTE,
    },
    other: [
      'id',
      'station_id',
      'rider_number',
      'scanned_at',
      'received_at',
      'device_id',
      'source',
      'status',
      'reason',
      'review_decision',
      'reviewed_at',
      'edition_id',
    ],
  },
  sessions: {
    goesWith: ['user_id'],
    personal: { user_id: 'goes', token_hash: 'goes', ip: 'goes', user_agent: 'goes' },
    other: ['id', 'created_at', 'expires_at', 'revoked_at', 'started_at'],
  },
  sms_pins: { goesWith: ['user_id'], personal: { user_id: 'goes', pin_hash: 'goes' }, other: ['updated_at'] },
  sos_abuse_marks: {
    goesWith: ['user_id'],
    personal: { user_id: 'goes', note: 'goes', marked_by: 'reference' },
    other: ['incident_id', 'marked_at', 'edition_id'],
  },
  sos_calls: {
    goesWith: ['rider_id', 'incident_id'],
    personal: { rider_id: 'goes', note: 'goes', lat: 'goes', lng: 'goes', accuracy: 'goes', position_at: 'goes' },
    other: ['id', 'incident_id', 'kind', 'created_at'],
  },
  stations: {
    personal: {},
    other: [
      'id',
      'name',
      'kind',
      'day',
      'routes',
      'order',
      'lat',
      'lng',
      'opens_at',
      'closes_at',
      'required',
      'closed',
      'created_at',
      'updated_at',
      'code',
      'edition_id',
    ],
  },
  trackers: {
    goesWith: ['user_id'],
    personal: Object.fromEntries(
      [
        'user_id',
        'tracking_id',
        'last_lat',
        'last_lng',
        'last_at',
        'last_speed',
        'last_accuracy',
        'last_battery',
        'last_charging',
        'anchor_lat',
        'anchor_lng',
        'anchor_at',
      ].map((c) => [c, 'goes' as const]),
    ),
    other: [
      'edition_id',
      'enabled',
      'consent_version',
      'consented_at',
      'withdrawn_at',
      'last_along_m',
      'last_off_route_m',
      'moving_speed',
      'stop_dismissed',
      'off_route_streak',
      'off_route',
      'stop_incident_id',
      'off_route_incident_id',
      'created_at',
      'updated_at',
    ],
  },
  verification_history: {
    personal: {
      user_id: 'reference',
      user_first_name: AUDIT,
      user_last_name: AUDIT,
      kit_name: AUDIT,
      verification_code: 'cleared',
      admin_id: 'reference',
      admin_first_name: AUDIT,
      admin_last_name: AUDIT,
      notes: 'scrubbed',
    },
    other: ['id', 'verification_id', 'action', 'created_at', 'edition_id'],
  },
};
