export const inputStyles =
  'block w-full min-h-12 rounded-md border-2 border-ink-600 bg-ink-900 px-3 py-2 text-bone placeholder:text-smoke ' +
  'focus:border-fire-500 focus:outline-none focus-visible:outline-none focus:ring-2 focus:ring-fire-500/40 ' +
  'aria-[invalid=true]:border-ember-500 disabled:opacity-60';

export const labelStyles = 'mb-1.5 block text-sm font-bold uppercase tracking-wide text-ash';
