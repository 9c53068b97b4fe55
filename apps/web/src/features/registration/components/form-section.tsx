import type { ReactNode } from 'react';

export function FormSection({
  number,
  title,
  description,
  children,
}: {
  number: number;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const id = `section-${number}`;
  return (
    <section
      aria-labelledby={id}
      className="rounded-xl border border-ink-700 bg-ink-900 p-4 shadow-lg shadow-black/40 sm:p-6"
    >
      <div className="mb-5 flex items-start gap-3 border-b border-ink-700 pb-4">
        <span
          className="flex size-10 shrink-0 items-center justify-center rounded-md bg-fire-500 font-display text-xl text-ink-950"
          aria-hidden="true"
        >
          {String(number).padStart(2, '0')}
        </span>
        <div>
          <h2 id={id} className="text-2xl sm:text-3xl">
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-ash">{description}</p>}
        </div>
      </div>
      {children}
    </section>
  );
}
