import type { ReactNode } from 'react';

interface ErrorScreenProps {
  /** The page's heading; also its document title. */
  title: string;
  message: ReactNode;
  /** The way on: a link back to the rally, a reload. */
  actions: ReactNode;
  /** The site's top bar, for screens that do not draw their own (the public profile does). */
  header?: ReactNode;
  icon?: ReactNode;
  /** A message that answers what the visitor asked for (read out at once). */
  alert?: boolean;
}

/** A whole-page dead end (nothing at this path, an unknown rider, a screen that broke). */
export function ErrorScreen({ title, message, actions, header, icon, alert = false }: ErrorScreenProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-ink-950">
      <title>{`${title} | Mindanao Warriors Endurance Rally`}</title>
      {header}
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-12 text-center">
        <div
          className={icon ? 'w-full max-w-md rounded-xl border-2 border-ember-600 bg-ink-900 p-6 sm:p-8' : 'max-w-md'}
        >
          {icon}
          <h1 className={icon ? 'mt-4 text-4xl text-ember-400' : 'text-5xl text-fire-400'}>{title}</h1>
          <p role={alert ? 'alert' : undefined} className={icon ? 'mt-3 text-ash' : 'mt-4 text-ash'}>
            {message}
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">{actions}</div>
        </div>
      </main>
    </div>
  );
}
