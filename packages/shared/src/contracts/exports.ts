// Exports and sticker sheets for the organisers (issue 17):
// spreadsheets at GET /api/admin/exports/{name}.{csv|xlsx}, the Reports tab's index of
// them, and A4 sheets of QR stickers.
import { z } from 'zod';
import { SENSITIVE_KINDS } from '../catalog/privacy';
import { RIDER_NUMBER_MAX } from '../catalog/rider-number';
import { envelope } from './common';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
/** Longest `{name}.{ext}` the route reads; anything longer is no export. */
export const EXPORT_FILE_MAX = 80;

export const exportFileParams = z.object({
  file: z
    .string()
    .max(EXPORT_FILE_MAX, { message: `file must be at most ${EXPORT_FILE_MAX} characters` })
    .describe('`{name}.csv` or `{name}.xlsx`; the names are listed by GET /api/admin/exports'),
});

/**
 * Why a staff member downloads an export carrying riders' sensitive data (DESIGN.md §12):
 * asked by those exports only, stored on each line of the access log the download writes.
 */
export const EXPORT_REASON_MIN = 5;
export const EXPORT_REASON_MAX = 300;
export const EXPORT_REASON_REQUIRED = 'Say why you export riders’ sensitive data (at least 5 characters)';

export const exportFileQuery = z.object({
  reason: z
    .string()
    .max(EXPORT_REASON_MAX, { message: `reason must be at most ${EXPORT_REASON_MAX} characters` })
    .optional()
    .describe(
      `Why you download it (${EXPORT_REASON_MIN} to ${EXPORT_REASON_MAX} characters): required by the exports whose \`sensitiveKinds\` is not empty, kept in the access log`,
    ),
});
export type ExportFileQuery = z.infer<typeof exportFileQuery>;

export const exportSummary = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  /** The sensitive kinds its columns carry: when any, a download asks for a reason. */
  sensitiveKinds: z.array(z.enum(SENSITIVE_KINDS)),
  rows: z.number().int(),
  lastDownloadedAt: z.string().nullable(),
  lastDownloadedBy: z.string().nullable(),
});
export type ExportSummary = z.infer<typeof exportSummary>;
export const exportListResponse = envelope(z.array(exportSummary));
export type ExportListResponse = z.infer<typeof exportListResponse>;

/** Stickers per sheet call: every rider number once. */
export const STICKER_SHEET_MAX = RIDER_NUMBER_MAX;
/** 5 cm in PDF points (1 pt = 1/72 inch). */
export const STICKER_SIZE_PT = (50 / 25.4) * 72;

export const stickerSheetBody = z.object({
  riderIds: z
    .array(z.uuid({ message: 'riderIds must hold rider ids' }), { message: 'riderIds must be a list of rider ids' })
    .min(1, { message: 'riderIds must name at least one rider' })
    .max(STICKER_SHEET_MAX, { message: `riderIds may name at most ${STICKER_SHEET_MAX} riders` })
    .optional()
    .describe('The riders to print, in this order; or leave out and send allUnprinted'),
  allUnprinted: z
    .boolean({ message: 'allUnprinted must be true or false' })
    .optional()
    .describe('Every verified rider whose sticker was never printed, by rider number'),
});
export type StickerSheetBody = z.infer<typeof stickerSheetBody>;
