// Registration: payment methods, categories and prices, kit sizes, and the limits of
// uploaded files and images.
// One topic of the catalog: the rally's fixed content and business constants, defined once;
// the server's Postgres enums, the zod contracts and the web UI read them from here.
import type { Gender } from './accounts';

export const PAYMENT_METHODS = ['cash', 'gcash', 'bank_transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Cash',
  gcash: 'GCash',
  bank_transfer: 'Bank Transfer',
};

export const BASE_CATEGORIES = ['lakambini', 'lakan', 'bagani', 'magani'] as const;
export type BaseCategory = (typeof BASE_CATEGORIES)[number];
export const CATEGORIES = [
  'lakambini',
  'lakan',
  'bagani',
  'magani',
  'lakambini-obr',
  'lakan-obr',
  'bagani-obr',
  'magani-obr',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const OBR_DISCOUNT = 200;
export const OBR_BADGE = 'P200 OFF';

/** What carries a price: every category, and a guest's entry. */
export const PRICE_KEYS = [...CATEGORIES, 'guest'] as const;
export type PriceKey = (typeof PRICE_KEYS)[number];
export type Prices = Record<PriceKey, number>;
/** The highest price an organiser may set, in pesos (a typo guard). */
export const PRICE_MAX = 100_000;

/**
 * Base prices in pesos: an edition's until its organiser sets its own (DESIGN.md §9).
 * Magani is the men's track of Lakambini and costs the same.
 */
export const PRICES: Prices = {
  lakambini: 2700,
  lakan: 2700,
  bagani: 3000,
  magani: 2700,
  'lakambini-obr': 2500,
  'lakan-obr': 2500,
  'bagani-obr': 2800,
  'magani-obr': 2500,
  guest: 0,
};

export const EARLY_BIRD = { active: false, percent: 10, fixedDiscount: 300, guestDiscount: 0 } as const;

/** The amount a rider owes for a category at the current edition's prices; computed on the server, shown on the client. */
export function paymentAmountFor(category: Category | 'guest', prices: Prices = PRICES): number {
  const price = prices[category];
  if (!EARLY_BIRD.active || category === 'guest') return price;
  return Math.max(0, price - EARLY_BIRD.fixedDiscount);
}

/** A man choosing lakambini (the women's track) rides magani. */
export function normaliseCategory(category: Category, gender: Gender | undefined | null): Category {
  if (gender !== 'male') return category;
  if (category === 'lakambini') return 'magani';
  if (category === 'lakambini-obr') return 'magani-obr';
  return category;
}

export function isObr(category: string | null | undefined): boolean {
  return typeof category === 'string' && category.endsWith('-obr');
}

export function baseCategoryOf(category: string | null | undefined): BaseCategory | null {
  if (!category) return null;
  const base = category.replace(/-obr$/, '');
  return (BASE_CATEGORIES as readonly string[]).includes(base) ? (base as BaseCategory) : null;
}

export const CATEGORY_DISPLAY: Record<BaseCategory, { name: string; distance: string; tagline: string }> = {
  bagani: { name: 'BAGANI', distance: '1213KM+', tagline: 'Elite warriors only' },
  lakan: { name: 'LAKAN', distance: '603KM+', tagline: 'Chiefs challenge' },
  lakambini: { name: 'LAKAMBINI', distance: '300KM+', tagline: 'Queens of the road' },
  magani: { name: 'MAGANI', distance: '300KM+', tagline: 'Warriors of the road' },
};

/**
 * Display data of a category. Unknown or unset categories show as bagani (rider side);
 * pass `unsetAs: 'not-set'` for the staff user list, which shows NOT SET / TBD.
 */
export function categoryDisplay(
  category: string | null | undefined,
  opts: { gender?: string | null; unsetAs?: 'bagani' | 'not-set' } = {},
): { name: string; distance: string; tagline: string; obr: boolean } {
  let base = baseCategoryOf(category);
  if (base === 'lakambini' && opts.gender === 'male') base = 'magani';
  if (!base) {
    if (opts.unsetAs === 'not-set' && !category) return { name: 'NOT SET', distance: 'TBD', tagline: '', obr: false };
    base = 'bagani';
  }
  const d = CATEGORY_DISPLAY[base];
  return { ...d, name: isObr(category) ? `${d.name} OBR` : d.name, obr: isObr(category) };
}

export const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL', 'CUSTOM'] as const;
export type Size = (typeof SIZES)[number];
/** Sizing guide by chest, in inches. */
export const SIZE_CHEST_GUIDE: Record<Exclude<Size, 'CUSTOM'>, string> = {
  XS: '30-32',
  S: '34-36',
  M: '38-40',
  L: '42-44',
  XL: '46-48',
  XXL: '50-52',
  XXXL: '54-56',
};
export const CUSTOM_SIZE_MAX = 50;

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const UPLOAD_TOO_LARGE_MESSAGE = 'File size must be less than 10MB';
/**
 * Re-encoded images are capped to this many pixels on their longest side. Not 2048: a phone's
 * 12-megapixel photo (4032 px) must be at least twice the kept edge for libjpeg to decode it
 * at half scale (shrink-on-load), so at 2000 it is never decoded whole.
 */
export const IMAGE_MAX_EDGE = 2000;
/** Uploads whose declared dimensions exceed this are refused before decoding (pixel floods). */
export const IMAGE_MAX_INPUT_PIXELS = 40_000_000;
/**
 * Smaller copies of a profile picture, by their longest edge in pixels (`?size=`): `thumb`
 * for avatars in lists and the scanner's offline roster, `display` for the head of a
 * profile (160 CSS px at up to 3 device pixels). A stored picture can be 2048 px; a list
 * of commenters on mobile data should not download it twenty times.
 */
export const PROFILE_IMAGE_SIZES = { thumb: 128, display: 480 } as const;
export type ProfileImageSize = keyof typeof PROFILE_IMAGE_SIZES;
