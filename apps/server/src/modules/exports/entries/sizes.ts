// Size totals for the printer of the three kit items (T-shirt, finisher sleeve, vest) over
// the verified riders, who are the ones given a kit. Every standard size has its line
// (zero included, so the order form is the same grid each time); each custom size text
// has its own line, spelt as riders typed it, grouped without regard to case and spaces.
import { KIT_ITEM_LABELS } from '@rally/shared/catalog/console';
import { SIZES } from '@rally/shared/catalog/registration';
import { and, asc } from 'drizzle-orm';
import { entries } from '../../../db/schema/entries';
import { users } from '../../../db/schema/users';
import { entryIn, isVerifiedRider } from '../../../lib/riders';
import { visibleAccounts } from '../../../lib/visibility';
import { defineExport } from '../export-definition';

interface Chosen {
  size: string | null;
  custom: string | null;
}

const NOT_SET = 'Not set';

/** The lines of one item: standard sizes in catalog order, custom texts A–Z, then not set. */
export function sizeTotals(chosen: readonly Chosen[]): Array<{ size: string; custom: string; riders: number }> {
  const standard = new Map<string, number>(SIZES.filter((s) => s !== 'CUSTOM').map((s) => [s, 0]));
  const custom = new Map<string, { text: string; riders: number }>();
  let notSet = 0;
  for (const { size, custom: text } of chosen) {
    if (!size) notSet += 1;
    else if (size === 'CUSTOM') {
      const spelt = text?.trim().replace(/\s+/g, ' ') || '(no size given)';
      const key = spelt.toUpperCase();
      const seen = custom.get(key);
      if (seen) seen.riders += 1;
      else custom.set(key, { text: spelt, riders: 1 });
    } else standard.set(size, (standard.get(size) ?? 0) + 1);
  }
  return [
    ...[...standard].map(([size, riders]) => ({ size, custom: '', riders })),
    ...[...custom.values()]
      .sort((a, b) => a.text.localeCompare(b.text))
      .map((c) => ({ size: 'CUSTOM', custom: c.text, riders: c.riders })),
    { size: NOT_SET, custom: '', riders: notSet },
  ];
}

export const sizesExport = defineExport({
  name: 'sizes',
  title: 'Kit Size Totals',
  description: 'T-shirt, finisher sleeve and vest sizes of the verified riders, custom sizes included.',
  columns: [
    { key: 'item', header: 'Item', width: 16 },
    { key: 'size', header: 'Size', width: 10 },
    { key: 'custom', header: 'Custom Size', width: 24 },
    { key: 'riders', header: 'Riders', width: 8 },
  ],
  async rows(db, viewer, edition) {
    const rows = await db
      .select({
        tshirt: entries.tshirtSize,
        customTshirt: entries.customTshirtSize,
        sleeve: entries.finisherSleeveSize,
        customSleeve: entries.customFinisherSleeveSize,
        vest: entries.vestSize,
        customVest: entries.customVestSize,
      })
      .from(users)
      .innerJoin(entries, entryIn(edition))
      .where(and(isVerifiedRider, visibleAccounts(viewer.role, users.role)))
      // Registration order, so a custom size is spelt as the first rider to register typed it.
      .orderBy(asc(entries.createdAt), asc(entries.id));
    const items = [
      [KIT_ITEM_LABELS.tshirt, rows.map((r) => ({ size: r.tshirt, custom: r.customTshirt }))],
      [KIT_ITEM_LABELS.finisher_sleeve, rows.map((r) => ({ size: r.sleeve, custom: r.customSleeve }))],
      [KIT_ITEM_LABELS.vest, rows.map((r) => ({ size: r.vest, custom: r.customVest }))],
    ] as const;
    return items.flatMap(([item, chosen]) => sizeTotals(chosen).map((line) => ({ item, ...line })));
  },
});
