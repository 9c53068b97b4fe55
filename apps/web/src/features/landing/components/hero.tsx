import { EVENT, RALLY_ROUTES } from '@rally/shared/catalog/landing';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Logo } from '../../../components/ui/logo';

const FACTS = [
  { value: '3', label: 'Trials' },
  { value: RALLY_ROUTES.bagani.distance, label: 'Longest loop' },
  { value: '2', label: 'Days' },
  { value: '1000', label: 'Rider plates' },
];

export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-[radial-gradient(ellipse_at_50%_115%,rgb(234_88_12/0.55),rgb(185_28_28/0.25)_35%,transparent_70%)]"
      />
      <Ridges />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute top-16 right-[max(1rem,calc(50%-36rem))] hidden lg:block"
      >
        <div className="absolute inset-8 rounded-full bg-fire-600/30 blur-3xl" />
        <Logo className="relative size-[26rem] drop-shadow-[0_20px_40px_rgb(0_0_0/0.8)]" />
      </div>
      <div className="relative mx-auto max-w-6xl px-4 pt-10 pb-24 sm:pt-16 sm:pb-32 lg:pt-20">
        <p className="inline-flex items-center gap-2 rounded-full border border-fire-500/60 bg-ink-950/70 px-3 py-1 text-xs font-bold tracking-[0.2em] text-fire-300 uppercase sm:text-sm">
          <span className="size-2 animate-flicker rounded-full bg-fire-500" aria-hidden="true" />
          {EVENT.dates} · Limited slots
        </p>
        <h1 id="hero-title" className="mt-5 text-[clamp(3rem,13vw,8.5rem)] leading-[0.88]">
          <span className="fire-text block">Mindanao</span>
          <span className="block text-bone">Warriors</span>
          <span className="mt-2 block text-[0.34em] tracking-[0.12em] text-ash">Endurance Rally</span>
        </h1>
        <p className="mt-6 max-w-xl text-lg text-ash sm:text-xl">
          Three trials. One island. Ride the highways, mountain passes and highlands of Mindanao and earn your place in
          the tribe.
        </p>
        <div className="mt-8 flex flex-col gap-4 sm:flex-row sm:items-center">
          <Link to="/register" className={buttonStyles('primary', 'lg', 'w-full sm:w-auto')}>
            REGISTER NOW
            <ArrowRight className="size-6" aria-hidden="true" />
          </Link>
          <p className="text-center text-ash sm:text-left">
            Already a warrior?{' '}
            <Link to="/login" className="font-bold text-fire-300 underline underline-offset-4 hover:text-fire-400">
              Log in
            </Link>
          </p>
        </div>
        <dl className="mt-12 grid max-w-2xl grid-cols-2 gap-px overflow-hidden rounded-lg border border-ink-700 bg-ink-700 sm:grid-cols-4">
          {FACTS.map((fact) => (
            <div key={fact.label} className="bg-ink-950/90 px-4 py-3">
              <dt className="text-xs font-bold tracking-widest text-smoke uppercase">{fact.label}</dt>
              <dd className="font-display text-3xl text-bone">{fact.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

/** Mountain silhouettes along the bottom of the hero. */
function Ridges() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 1440 220"
      preserveAspectRatio="none"
      className="absolute inset-x-0 bottom-0 h-32 w-full sm:h-44"
    >
      <path
        d="M0 220V140l90-50 70 40 110-95 90 70 80-35 120 90 100-70 90 45 130-110 120 95 90-40 110 75 100-55 140 80v80Z"
        fill="#24201c"
      />
      <path
        d="M0 220v-40l120-45 100 35 140-60 110 50 120-30 140 55 120-50 130 40 150-65 110 45 100-20 100 35v50Z"
        fill="#151210"
      />
      <path d="M0 220v-18l200-22 240 16 260-24 240 20 260-18 240 22v24Z" fill="#0c0a09" />
    </svg>
  );
}
