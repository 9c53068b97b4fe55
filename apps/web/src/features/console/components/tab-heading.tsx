import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** The title row of a console tab (its h2; the console's h1 is 'Command Center'). */
export function TabHeading({ title, icon: Icon, actions }: { title: string; icon: LucideIcon; actions?: ReactNode }) {
  return (
    <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
      <h2 className="flex items-center gap-2 text-3xl text-bone">
        <Icon className="size-7 text-fire-400" aria-hidden="true" />
        {title}
      </h2>
      {actions}
    </div>
  );
}
