// Draws receipt screenshots for tests and the reading bench: a GCash "Express Send" receipt or a
// bank transfer confirmation, rendered from SVG by sharp with the fonts installed here and in CI
// (Liberation, DejaVu). A seed varies what a real upload varies (font, phone width, JPEG quality,
// a slight tilt, a turned or cropped picture, dark mode) and keeps every image reproducible.
import sharp from 'sharp';

export type ReceiptStyle = 'gcash' | 'bank';

export interface DrawReceiptOptions {
  style: ReceiptStyle;
  /** Digits only: 13 for GCash (printed 4-3-6), any length for a bank. */
  reference: string;
  amountCentavos: number;
  paidAt: Date;
  /** The masked name as printed ("JU** DE* C."). */
  recipient: string;
  /** The masked number GCash prints under the name ("+63 917 *** 4321"). */
  recipientPhone?: string;
  /**
   * Varies everything below that is not given. Without a seed the receipt is plain: 1080 px wide,
   * Liberation Sans, PNG, upright, light.
   */
  seed?: number;
  width?: 720 | 1080 | 1440;
  font?: string;
  /** Multiplies every font size (0.85–1.15 when seeded). */
  fontScale?: number;
  format?: 'png' | 'jpeg';
  /** JPEG quality, 40–95 when seeded. */
  quality?: number;
  /** Degrees clockwise: a slight tilt (±3) or a quarter turn (90, 180, 270). */
  rotate?: number;
  /** Cuts part of the margins and the header off, as a cropped screenshot. */
  crop?: boolean;
  dark?: boolean;
}

/** The fonts drawn with: present on this machine and in CI (fonts-liberation, fonts-dejavu). */
export const RECEIPT_FONTS = [
  'Liberation Sans',
  'Liberation Serif',
  'Liberation Sans Narrow',
  'DejaVu Sans',
  'DejaVu Sans Condensed',
  'DejaVu Serif',
  'Liberation Mono',
] as const;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const BANKS = [
  { name: 'BPI', colour: '#b11116' },
  { name: 'BDO', colour: '#0033a0' },
  { name: 'Metrobank', colour: '#1d4e9e' },
  { name: 'UnionBank', colour: '#f26522' },
];
const BANK_REFERENCE_LABELS = ['Reference No.', 'Ref. No.', 'Transaction ID', 'Reference Number'];

/** A small deterministic generator (mulberry32): the same seed draws the same receipt. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;

/** Plausible receipt fields from a seed, for tests and the bench that need many different receipts. */
export function randomReceiptFields(
  seed: number,
  style: ReceiptStyle = 'gcash',
): Pick<DrawReceiptOptions, 'style' | 'reference' | 'amountCentavos' | 'paidAt' | 'recipient' | 'recipientPhone'> {
  const rnd = seededRandom(seed * 7919 + 17);
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');
  const reference =
    style === 'gcash'
      ? `${1 + Math.floor(rnd() * 9)}${digits(12)}`
      : `${1 + Math.floor(rnd() * 9)}${digits(9 + Math.floor(rnd() * 5))}`;
  // Entry fees: round pesos mostly, some with centavos.
  const pesos = 300 + Math.floor(rnd() * 60) * 50 + (rnd() < 0.2 ? Math.floor(rnd() * 50) : 0);
  const amountCentavos = pesos * 100 + (rnd() < 0.15 ? Math.floor(rnd() * 100) : 0);
  const paidAt = new Date(
    Date.UTC(2026, Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 28), Math.floor(rnd() * 24), Math.floor(rnd() * 60)),
  );
  const letters = 'ABCDEFGHIJKLMNOPRSTUVY';
  const masked = () => `${pick(rnd, [...letters])}${pick(rnd, [...letters])}${'*'.repeat(1 + Math.floor(rnd() * 3))}`;
  const recipient = `${masked()} ${masked()} ${pick(rnd, [...letters])}.`;
  const recipientPhone = `+63 9${digits(2)} *** ${digits(4)}`;
  return { style, reference, amountCentavos, paidAt, recipient, recipientPhone };
}

/** "1,500.00" */
export function formatPesos(centavos: number): string {
  const pesos = Math.floor(centavos / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${pesos}.${String(centavos % 100).padStart(2, '0')}`;
}

/** The wall-clock parts of an instant in Manila (UTC+8, no daylight saving). */
function manila(date: Date) {
  const d = new Date(date.getTime() + 8 * 3600_000);
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth(), d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes() };
}

function twelveHour(h: number, mi: number, pad: boolean): string {
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${pad ? String(h12).padStart(2, '0') : h12}:${String(mi).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** GCash prints "Mar 12, 2026 2:31 PM". */
function gcashDate(date: Date): string {
  const t = manila(date);
  return `${MONTHS[t.mo]} ${t.d}, ${t.y} ${twelveHour(t.h, t.mi, false)}`;
}

/** Banks print the date in one of several ways. */
function bankDate(date: Date, variant: number): string {
  const t = manila(date);
  const pad = (n: number) => String(n).padStart(2, '0');
  if (variant === 0) return `${pad(t.d)} ${MONTHS[t.mo]} ${t.y}, ${twelveHour(t.h, t.mi, true)}`;
  if (variant === 1) return `${MONTHS[t.mo]} ${t.d}, ${t.y} ${twelveHour(t.h, t.mi, false)}`;
  return `${pad(t.mo + 1)}/${pad(t.d)}/${t.y} ${pad(t.h)}:${pad(t.mi)}`;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Theme {
  page: string;
  card: string;
  ink: string;
  muted: string;
  rule: string;
}

const LIGHT: Theme = { page: '#f2f4f7', card: '#ffffff', ink: '#1b1b1f', muted: '#6b7280', rule: '#e5e7eb' };
const DARK: Theme = { page: '#0f1115', card: '#1c1f26', ink: '#f3f4f6', muted: '#a1a7b3', rule: '#343844' };

/** How a receipt is drawn: the options given, the rest from the seed (or plain without one). */
export interface ReceiptLook {
  width: 720 | 1080 | 1440;
  font: string;
  fontScale: number;
  format: 'png' | 'jpeg';
  quality: number;
  rotate: number;
  crop: boolean;
  dark: boolean;
  bankVariant: number;
  cropCut: [number, number, number];
}

/** The look a receipt is drawn with: for the bench to break its figures down by look. */
export function receiptLook(
  opts: Omit<DrawReceiptOptions, 'reference' | 'amountCentavos' | 'paidAt' | 'recipient' | 'style'>,
): ReceiptLook {
  const rnd = opts.seed === undefined ? null : seededRandom(opts.seed);
  const chance = (p: number) => (rnd ? rnd() < p : false);
  const width = opts.width ?? (rnd ? pick(rnd, [720, 1080, 1440] as const) : 1080);
  const font = opts.font ?? (rnd ? pick(rnd, RECEIPT_FONTS) : 'Liberation Sans');
  const fontScale = opts.fontScale ?? (rnd ? 0.85 + rnd() * 0.3 : 1);
  const format = opts.format ?? (rnd ? (rnd() < 0.65 ? 'jpeg' : 'png') : 'png');
  const quality = opts.quality ?? (rnd ? 40 + Math.floor(rnd() * 56) : 90);
  const dark = opts.dark ?? chance(0.15);
  let rotate = opts.rotate;
  if (rotate === undefined && rnd) {
    const r = rnd();
    rotate = r < 0.04 ? 90 : r < 0.06 ? 270 : r < 0.08 ? 180 : r < 0.38 ? Math.round((rnd() * 6 - 3) * 10) / 10 : 0;
  }
  const crop = opts.crop ?? chance(0.2);
  const bankVariant = rnd ? Math.floor(rnd() * 1000) : 0;
  const cropCut: [number, number, number] = rnd ? [rnd(), rnd(), rnd()] : [0.5, 0.5, 0.5];
  return { width, font, fontScale, format, quality, rotate: rotate ?? 0, crop, dark, bankVariant, cropCut };
}

/** Draws a receipt screenshot: PNG or JPEG bytes. */
export async function drawReceipt(opts: DrawReceiptOptions): Promise<Buffer> {
  const { width, font, fontScale, format, quality, rotate, crop, dark, bankVariant, cropCut } = receiptLook(opts);
  const s = width / 1080;
  const height = Math.round(width * (16 / 9));
  const theme = dark ? DARK : LIGHT;
  const size = (px: number) => Math.round(px * s * fontScale);
  const parts: string[] = [];
  const text = (
    x: number,
    y: number,
    str: string,
    px: number,
    o: { fill?: string; anchor?: string; bold?: boolean } = {},
  ) =>
    parts.push(
      `<text x="${Math.round(x)}" y="${Math.round(y)}" font-family="${font}" font-size="${size(px)}"${o.bold ? ' font-weight="bold"' : ''} fill="${o.fill ?? theme.ink}" text-anchor="${o.anchor ?? 'start'}">${escapeXml(str)}</text>`,
    );
  const rule = (y: number) =>
    parts.push(
      `<rect x="${Math.round(70 * s)}" y="${Math.round(y)}" width="${Math.round(width - 140 * s)}" height="${Math.max(1, Math.round(2 * s))}" fill="${theme.rule}"/>`,
    );
  const left = 80 * s;
  const right = width - 80 * s;
  const mid = width / 2;
  const amount = formatPesos(opts.amountCentavos);

  parts.push(`<rect width="100%" height="100%" fill="${theme.page}"/>`);
  if (opts.style === 'gcash') {
    parts.push(`<rect width="100%" height="${Math.round(220 * s)}" fill="#007dfe"/>`);
    text(mid, 150 * s, 'GCash', 64, { fill: '#ffffff', anchor: 'middle', bold: true });
    parts.push(
      `<rect x="${Math.round(50 * s)}" y="${Math.round(260 * s)}" width="${Math.round(width - 100 * s)}" height="${Math.round(1250 * s)}" rx="${Math.round(24 * s)}" fill="${theme.card}"/>`,
    );
    text(mid, 370 * s, 'Express Send', 46, { anchor: 'middle', bold: true });
    text(mid, 440 * s, 'Sent via GCash', 34, { fill: theme.muted, anchor: 'middle' });
    text(mid, 560 * s, opts.recipient, 52, { anchor: 'middle', bold: true });
    if (opts.recipientPhone) text(mid, 630 * s, opts.recipientPhone, 38, { fill: theme.muted, anchor: 'middle' });
    rule(700 * s);
    text(left, 800 * s, 'Amount', 38, { fill: theme.muted });
    text(right, 800 * s, amount, 38, { anchor: 'end' });
    rule(870 * s);
    text(left, 970 * s, 'Total Amount Sent', 40, { bold: true });
    text(right, 970 * s, `₱${amount}`, 44, { anchor: 'end', bold: true });
    rule(1040 * s);
    const ref = `${opts.reference.slice(0, 4)} ${opts.reference.slice(4, 7)} ${opts.reference.slice(7)}`;
    text(left, 1140 * s, `Ref No. ${ref}`, 30, { fill: theme.muted });
    text(right, 1140 * s, gcashDate(opts.paidAt), 30, { fill: theme.muted, anchor: 'end' });
    text(mid, 1400 * s, 'Transaction completed', 30, { fill: theme.muted, anchor: 'middle' });
  } else {
    const bank = BANKS[bankVariant % BANKS.length] ?? BANKS[0];
    const refLabel =
      BANK_REFERENCE_LABELS[Math.floor(bankVariant / 4) % BANK_REFERENCE_LABELS.length] ?? 'Reference No.';
    const date = bankDate(opts.paidAt, Math.floor(bankVariant / 16) % 3);
    parts.push(`<rect width="100%" height="${Math.round(220 * s)}" fill="${bank?.colour}"/>`);
    text(mid, 150 * s, bank?.name ?? 'BPI', 64, { fill: '#ffffff', anchor: 'middle', bold: true });
    parts.push(
      `<rect x="${Math.round(50 * s)}" y="${Math.round(260 * s)}" width="${Math.round(width - 100 * s)}" height="${Math.round(1300 * s)}" rx="${Math.round(16 * s)}" fill="${theme.card}"/>`,
    );
    text(mid, 380 * s, 'Transfer successful', 48, { anchor: 'middle', bold: true });
    text(mid, 500 * s, `PHP ${amount}`, 60, { anchor: 'middle', bold: true });
    rule(580 * s);
    const rows: [string, string][] = [
      ['Transfer to', opts.recipient],
      ['Account number', opts.recipientPhone ? `**** **** ${opts.recipientPhone.slice(-4)}` : '**** **** 0000'],
      ['Amount', `PHP ${amount}`],
      ['Service fee', 'PHP 0.00'],
      [refLabel, opts.reference],
      ['Date', date],
    ];
    rows.forEach(([label, value], i) => {
      const y = 680 * s + i * 120 * s;
      text(left, y, label, 34, { fill: theme.muted });
      text(right, y, value, 36, { anchor: 'end' });
    });
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;

  let image = sharp(Buffer.from(svg)).flatten({ background: theme.page });
  if (crop) {
    // A cropped screenshot: the header and some of each side gone, the receipt's lines kept.
    const top = Math.round((120 + cropCut[0] * 120) * s);
    const side = Math.round(cropCut[1] * 40 * s);
    const bottom = Math.round((1620 + cropCut[2] * 200) * s);
    image = sharp(await image.png().toBuffer()).extract({
      left: side,
      top,
      width: width - 2 * side,
      height: Math.min(height, bottom) - top,
    });
  }
  if (rotate) {
    image = sharp(await image.png().toBuffer()).rotate(rotate, { background: theme.page });
  }
  return format === 'jpeg' ? image.jpeg({ quality }).toBuffer() : image.png().toBuffer();
}
