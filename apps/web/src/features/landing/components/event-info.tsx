import { EVENT } from '@rally/shared/catalog/landing';
import { CalendarDays, ClipboardPen, Mountain } from 'lucide-react';

const ITEMS = [
  { icon: CalendarDays, title: 'Date', text: EVENT.dates, detail: 'Two days in the saddle, flag-off in Davao City.' },
  {
    icon: ClipboardPen,
    title: 'Registration',
    text: EVENT.registration,
    detail: 'Pick your rider number before someone else claims it.',
  },
  { icon: Mountain, title: 'Terrain', text: EVENT.terrain, detail: 'Bring a bike and a body ready for long climbs.' },
];

export function EventInfo() {
  return (
    <section
      id="event-info"
      aria-labelledby="event-info-title"
      className="mx-auto max-w-6xl scroll-mt-4 px-4 py-16 sm:py-20"
    >
      <p className="font-display text-lg tracking-[0.3em] text-fire-400">Event info</p>
      <h2 id="event-info-title" className="mt-1 text-5xl sm:text-6xl">
        The Call To Ride
      </h2>
      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {ITEMS.map(({ icon: Icon, title, text, detail }) => (
          <li key={title} className="rounded-xl border border-ink-700 border-l-4 border-l-fire-500 bg-ink-900 p-6">
            <Icon className="size-8 text-fire-400" aria-hidden="true" />
            <h3 className="mt-3 text-2xl text-fire-300">{title}</h3>
            <p className="mt-2 text-lg font-semibold text-bone">{text}</p>
            <p className="mt-2 text-sm text-ash">{detail}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
