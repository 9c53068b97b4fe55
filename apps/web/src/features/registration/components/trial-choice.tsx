import type { Gender } from '@rally/shared/catalog/accounts';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import {
  type Category,
  categoryDisplay,
  EARLY_BIRD,
  isObr,
  OBR_BADGE,
  OBR_DISCOUNT,
  paymentAmountFor,
} from '@rally/shared/catalog/registration';
import { FieldError } from '../../../components/ui/text-field';
import { useCurrentPrices } from '../../../lib/editions';
import { formatPeso } from '../../../lib/format';

// The six trials a rider can pick, each next to its Official Back Ride variant.
const CHOICES: Category[] = ['lakambini', 'lakambini-obr', 'lakan', 'lakan-obr', 'bagani', 'bagani-obr'];

function routeDistance(category: Category): string {
  const base = category.replace(/-obr$/, '');
  return RALLY_ROUTES[base === 'lakan' || base === 'bagani' ? base : 'lakambini'].distance;
}

interface TrialChoiceProps {
  value: Category | '';
  gender: Gender | '';
  onChange: (category: Category) => void;
  error?: { message: string; id: string };
}

export function TrialChoice({ value, gender, onChange, error }: TrialChoiceProps) {
  const prices = useCurrentPrices();
  return (
    <fieldset aria-invalid={error ? true : undefined} aria-describedby={error?.id}>
      <legend className="sr-only">Trial</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {CHOICES.map((category) => {
          // Shown as the rider will be registered: a man choosing lakambini rides magani.
          const display = categoryDisplay(category, { gender });
          const obr = isObr(category);
          const amount = paymentAmountFor(category, prices);
          return (
            <label
              key={category}
              data-category={category}
              className="relative flex cursor-pointer flex-col rounded-lg border-2 border-ink-600 bg-ink-850 p-4 transition-colors hover:border-fire-500 has-[:checked]:border-fire-500 has-[:checked]:bg-ink-800 has-[:checked]:shadow-[0_0_0_3px_rgb(249_115_22/0.25)] has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400"
            >
              <input
                type="radio"
                name="category"
                value={category}
                checked={value === category}
                onChange={() => onChange(category)}
                className="absolute top-4 right-4 size-5 accent-fire-500"
              />
              <span className="pr-8 font-display text-2xl leading-tight">
                {category.startsWith('lakambini') && !gender ? `LAKAMBINI / MAGANI${obr ? ' OBR' : ''}` : display.name}
              </span>
              <span className="text-sm font-bold tracking-wide text-fire-300 uppercase">
                {routeDistance(category)} ·{' '}
                {category.startsWith('lakambini') && !gender ? RALLY_ROUTES.lakambini.tagline : display.tagline}
              </span>
              {obr && <span className="mt-1 text-xs text-ash">Official Back Ride, with a pillion</span>}
              <span className="mt-3 flex flex-wrap items-center gap-2">
                <span className="font-display text-3xl text-bone">{formatPeso(amount)}</span>
                {obr && (
                  <>
                    <s className="text-sm text-smoke">
                      <span className="sr-only">was </span>
                      {formatPeso(prices[category] + OBR_DISCOUNT)}
                    </s>
                    <span className="rounded bg-ember-600 px-2 py-0.5 text-xs font-black tracking-wider text-white">
                      {OBR_BADGE}
                    </span>
                  </>
                )}
                {EARLY_BIRD.active && <span className="text-xs font-bold text-jade-400">Early-bird price</span>}
              </span>
            </label>
          );
        })}
      </div>
      {error && <FieldError id={error.id}>{error.message}</FieldError>}
      {gender === 'male' && (
        <p className="mt-3 text-sm text-ash">Men choosing the Lakambini trial ride it as Magani.</p>
      )}
    </fieldset>
  );
}
