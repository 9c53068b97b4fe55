// A rider's data, on request (DESIGN.md §12): a ZIP of everything the platform holds about
// them, prepared in the background and offered for DATA_EXPORT_DAYS to its owner (or, for a
// request that came by letter, to staff with delete_user).
import { z } from 'zod';
import { envelope } from './common';

export const DATA_EXPORT_STATUSES = ['pending', 'ready', 'failed'] as const;
export const dataExportStatus = z.enum(DATA_EXPORT_STATUSES);
export type DataExportStatus = z.infer<typeof dataExportStatus>;

/** One export: its state, and its size once ready. */
export const dataExport = z.object({
  id: z.string(),
  status: dataExportStatus,
  createdAt: z.string(),
  /** When the ZIP was built; null while pending or after a failure. */
  readyAt: z.string().nullable(),
  /** After this the ZIP is gone (410 until the row itself is removed). */
  expiresAt: z.string(),
  /** The ZIP's size in bytes, once ready. */
  bytes: z.number().int().nullable(),
  /** True when staff made it for a request received by letter or email. */
  byStaff: z.boolean(),
});
export type DataExport = z.infer<typeof dataExport>;

export const dataExportParams = z.object({ id: z.uuid({ message: 'id must be a valid export id' }) });

/** POST /api/my/data-export, POST /api/admin/users/{id}/data-export: 202. */
export const dataExportCreatedResponse = envelope(dataExport);
/** GET /api/my/data-export/{id}. */
export const dataExportResponse = envelope(dataExport);
/** GET /api/my/data-export: the rider's exports still offered, latest first. */
export const dataExportListResponse = envelope(z.array(dataExport));

/** A letter export as staff see it: whose data it is. */
export const adminDataExport = dataExport.extend({
  userId: z.string(),
  riderName: z.string(),
  riderEmail: z.string().nullable(),
});
export type AdminDataExport = z.infer<typeof adminDataExport>;
export const adminDataExportResponse = envelope(adminDataExport);
export const adminUserParams = z.object({ id: z.uuid({ message: 'id must be a valid account id' }) });
