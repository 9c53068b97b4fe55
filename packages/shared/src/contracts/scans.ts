// Scans: a marshal's device records a rider at a station. Devices make the
// ids, so a batch can be replayed any number of times; doubtful scans are kept and flagged.
import { z } from 'zod';
import {
  DEVICE_SCAN_SOURCES,
  SCAN_BATCH_MAX,
  SCAN_FLAG_REASONS,
  SCAN_REVIEW_DECISIONS,
  SCAN_SOURCES,
  SCAN_STATUSES,
} from '../catalog/event-day';
import { envelope, isoDateTime, pagination } from './common';
import { plainText } from './stations';

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const noControl = /^[^\u0000-\u001f\u007f]*$/;

/** One scan as the device recorded it. Validated item by item: a bad item never rejects its neighbours. */
export const scanItem = z
  .object({
    id: z.uuid({ message: 'id must be a UUID made on the device' }),
    stationId: z.uuid({ message: 'stationId must be a station id' }),
    riderCode: z
      .string({ message: 'riderCode must be text' })
      .min(1, { message: 'riderCode is empty' })
      .max(200, { message: 'riderCode must be at most 200 characters' })
      .regex(noControl, { message: 'riderCode must not contain control characters' })
      .optional(),
    riderNumber: z
      .number({ message: 'riderNumber must be a number' })
      .int({ message: 'riderNumber must be a whole number' })
      .min(0, { message: 'riderNumber must be at least 0' })
      .max(100_000, { message: 'riderNumber is too large' })
      .optional(),
    scannedAt: isoDateTime('scannedAt'),
    deviceId: z
      .string({ message: 'deviceId must be text' })
      .min(1, { message: 'deviceId is required' })
      .max(100, { message: 'deviceId must be at most 100 characters' })
      .regex(noControl, { message: 'deviceId must not contain control characters' }),
    source: z.enum(DEVICE_SCAN_SOURCES, { message: `source must be one of: ${DEVICE_SCAN_SOURCES.join(', ')}` }),
    recordedBy: z.uuid({ message: 'recordedBy must be a user id' }).optional(),
  })
  .refine((s) => (s.riderCode === undefined) !== (s.riderNumber === undefined), {
    message: 'Give either riderCode or riderNumber',
  });
export type ScanItem = z.infer<typeof scanItem>;

/** POST /api/admin/scans: the batch shape is checked whole (400), each item on its own (`invalid`). */
export const scanBatchRequest = z.object({
  scans: z
    .array(z.unknown(), { message: 'scans must be a list' })
    .min(1, { message: 'scans must hold at least one scan' })
    .max(SCAN_BATCH_MAX, { message: `scans must hold at most ${SCAN_BATCH_MAX} scans` }),
});

export const scanStatus = z.enum(SCAN_STATUSES);
export type ScanStatus = z.infer<typeof scanStatus>;
export const scanFlagReason = z.enum(SCAN_FLAG_REASONS);
export type ScanFlagReason = z.infer<typeof scanFlagReason>;

export const scanRiderRef = z.object({
  id: z.string(),
  riderNumber: z.number().int().nullable(),
  kitName: z.string().nullable(),
});

export const scanResult = z.object({
  id: z.string(),
  status: scanStatus,
  /** For `duplicate`: the outcome the first copy of this id got. */
  original: z.enum(['accepted', 'flagged']).optional(),
  reason: scanFlagReason.optional(),
  message: z.string().optional(),
  rider: scanRiderRef.optional(),
});
export type ScanResult = z.infer<typeof scanResult>;
export const scanBatchResponse = envelope(z.object({ results: z.array(scanResult) }));

/** GET /api/admin/scan-roster?since=CURSOR: the riders a scanner can recognise offline. */
export const rosterQuery = z.object({
  since: z.string().max(100, { message: 'since is not a valid cursor' }).optional(),
});
export const rosterRider = z.object({
  id: z.string(),
  riderCode: z.string().nullable(),
  riderNumber: z.number().int().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  kitName: z.string().nullable(),
  category: z.string().nullable(),
  route: z.string().nullable(),
  status: z.string(),
  photoUrl: z.string().nullable(),
});
export type RosterRider = z.infer<typeof rosterRider>;
export const rosterResponse = envelope(
  z.object({ riders: z.array(rosterRider), removed: z.array(z.string()), cursor: z.string() }),
);

/** The review queue of flagged scans (and their decisions). */
export const flaggedScan = z.object({
  id: z.string(),
  stationId: z.string(),
  stationName: z.string(),
  reason: scanFlagReason,
  scannedAt: z.string(),
  receivedAt: z.string(),
  deviceId: z.string(),
  source: z.enum(SCAN_SOURCES),
  riderCode: z.string().nullable(),
  riderNumber: z.number().int().nullable(),
  rider: z
    .object({
      id: z.string(),
      riderNumber: z.number().int().nullable(),
      kitName: z.string().nullable(),
      firstName: z.string(),
      lastName: z.string(),
      category: z.string().nullable(),
      photoUrl: z.string().nullable(),
    })
    .nullable(),
  recordedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  review: z
    .object({ decision: z.enum(SCAN_REVIEW_DECISIONS), note: z.string(), by: z.string(), at: z.string() })
    .nullable(),
});
export type FlaggedScan = z.infer<typeof flaggedScan>;
export const flaggedScanQuery = z.object({
  state: z.enum(['open', 'reviewed', 'all'], { message: 'state must be one of: open, reviewed, all' }).default('open'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const flaggedScanListResponse = envelope(z.object({ scans: z.array(flaggedScan), pagination }));
/** POST /api/admin/scans/{id}/review: accept (counts as a passage) or void, with a reason. */
export const reviewScanRequest = z.object({
  decision: z.enum(SCAN_REVIEW_DECISIONS, { message: 'decision must be accept or void' }),
  note: plainText('note', 1000),
});
export const reviewScanResponse = envelope(flaggedScan);

/** GET /api/my/passages: the rider's own accepted passages. */
export const passage = z.object({
  stationId: z.string(),
  stationName: z.string(),
  kind: z.string(),
  scannedAt: z.string(),
});
export type Passage = z.infer<typeof passage>;
export const passagesResponse = envelope(z.array(passage));
