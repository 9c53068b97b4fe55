import { KIT_ITEM_COUNT, KIT_ITEM_LABELS, type KitItem } from '@rally/shared/catalog/console';
import type { KitGivenField, KitParticipant } from '@rally/shared/contracts/kit-tracking';

export const KIT_CHECKS: ReadonlyArray<{ field: KitGivenField; item: KitItem; label: string }> = [
  { field: 'tshirt_given', item: 'tshirt', label: KIT_ITEM_LABELS.tshirt },
  { field: 'vest_given', item: 'vest', label: KIT_ITEM_LABELS.vest },
  { field: 'finisher_sleeve_given', item: 'finisher_sleeve', label: KIT_ITEM_LABELS.finisher_sleeve },
];

export function itemsGiven(p: KitParticipant): number {
  return KIT_CHECKS.filter((c) => p[c.field]).length;
}

export function kitProgress(p: KitParticipant): { given: number; complete: boolean; text: string } {
  const given = itemsGiven(p);
  return { given, complete: given === KIT_ITEM_COUNT, text: `Kit ${given}/${KIT_ITEM_COUNT} complete` };
}

/** The question asked before a kit item is marked given or not given. */
export function toggleConfirmText(label: string, name: string, give: boolean): string {
  return `Are you sure you want to mark as ${give ? 'given' : 'not given'} the ${label} for ${name}?`;
}
