// How the desk writes what was read off a receipt: the reference as GCash prints it, the
// amount to the centavo (a receipt's ₱1,499.50 must not read as ₱1,500) and the time in
// Manila, whatever the verifier's device says.
import { formatRallyMoment } from '@rally/shared/catalog/editions';
import { formatReference } from '@rally/shared/catalog/receipts';

/** Under this a field is marked for a second look. */
export const LOW_CONFIDENCE = 0.8;

export function isLowConfidence(confidence: number | null | undefined): boolean {
  return confidence !== null && confidence !== undefined && confidence < LOW_CONFIDENCE;
}

/** 1500 -> '₱1,500.00'. */
export function formatPesoCentavos(amount: number): string {
  const cents = Math.round(Math.abs(amount) * 100);
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = String(cents % 100).padStart(2, '0');
  return `${amount < 0 ? '-' : ''}₱${whole}.${fraction}`;
}

export function showReference(digits: string | null): string | null {
  return digits ? formatReference(digits) : null;
}

export function showPaidAt(iso: string | null): string | null {
  return iso && !Number.isNaN(Date.parse(iso)) ? formatRallyMoment(iso) : null;
}

/**
 * A search that is a reference typed as printed ("1001 543 610110", "1001-543-610110")
 * goes as its digits, which is how references are stored and compared; anything else as typed.
 */
export function searchTerm(text: string): string {
  const trimmed = text.trim();
  return /^[\d\s-]+$/.test(trimmed) && /\d[\s-]+\d/.test(trimmed) ? trimmed.replace(/\D/g, '') : trimmed;
}
