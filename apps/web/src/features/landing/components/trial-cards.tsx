import { RALLY_ROUTES, type RallyRoute } from '@rally/shared/catalog/landing';
import { OBR_BADGE, OBR_DISCOUNT } from '@rally/shared/catalog/registration';
import { formatPeso } from '../../../lib/format';
import { useEditionPrices } from '../lib/use-edition-prices';

const TRIALS: Array<{ route: RallyRoute; title: string; note: string }> = [
  {
    route: RALLY_ROUTES.lakambini,
    title: 'Lakambini / Magani',
    note: 'Women ride as Lakambini, men as Magani.',
  },
  { route: RALLY_ROUTES.lakan, title: 'Lakan', note: 'A chief’s test of distance and mountain roads.' },
  { route: RALLY_ROUTES.bagani, title: 'Bagani', note: 'The full loop of Mindanao. Only the strongest finish.' },
];

export function TrialCards() {
  const prices = useEditionPrices();
  return (
    <section id="trials" aria-labelledby="trials-title" className="mx-auto max-w-6xl scroll-mt-4 px-4 py-16 sm:py-20">
      <p className="font-display text-lg tracking-[0.3em] text-fire-400">Choose your trial</p>
      <h2 id="trials-title" className="mt-1 text-5xl sm:text-6xl">
        Three Trials
      </h2>
      <p className="mt-3 max-w-2xl text-ash">
        Every trial has an Official Back Ride (OBR) variant for riders carrying a pillion: same road, {OBR_DISCOUNT}{' '}
        pesos off.
      </p>
      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {TRIALS.map(({ route, title, note }) => {
          const price = prices[route.id];
          const obrPrice = prices[`${route.id}-obr`];
          return (
            <li
              key={route.id}
              className="group relative flex flex-col overflow-hidden rounded-xl border border-ink-700 bg-ink-900 shadow-lg shadow-black/50"
            >
              {/* The route colour as an SVG fill: the page is prerendered, and the CSP blocks style attributes. */}
              <svg className="block h-2 w-full" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true">
                <rect width="1" height="1" fill={route.color} />
              </svg>
              <div className="flex flex-1 flex-col p-6">
                <h3 className="text-3xl">{title}</h3>
                <p className="mt-1 text-sm font-bold tracking-widest text-fire-300 uppercase">{route.tagline}</p>
                <p className="mt-4 font-display text-6xl leading-none text-bone">{route.distance}</p>
                <p className="mt-3 text-sm text-ash">{note}</p>
                <div className="mt-auto space-y-3 pt-6">
                  <div className="flex items-baseline justify-between border-t border-ink-700 pt-4">
                    <span className="text-sm font-bold tracking-wide text-ash uppercase">Solo rider</span>
                    <span className="font-display text-3xl">{formatPeso(price)}</span>
                  </div>
                  <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-ink-800 px-3 py-2">
                    <span className="text-sm font-bold tracking-wide text-ash uppercase">
                      OBR <span className="sr-only">(Official Back Ride)</span>
                    </span>
                    <span className="rounded bg-ember-600 px-2 py-0.5 text-xs font-black tracking-wider text-white">
                      {OBR_BADGE}
                    </span>
                    <span className="flex items-baseline gap-2">
                      <s className="text-sm text-smoke">
                        <span className="sr-only">was </span>
                        {formatPeso(obrPrice + OBR_DISCOUNT)}
                      </s>
                      <span className="font-display text-2xl text-gold-300">{formatPeso(obrPrice)}</span>
                    </span>
                  </div>
                </div>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
