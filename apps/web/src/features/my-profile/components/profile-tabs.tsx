import type { LucideIcon } from 'lucide-react';
import { type KeyboardEvent, useRef } from 'react';
import { useHydrated } from '../../../lib/use-hydrated';

export interface TabDef<Id extends string> {
  id: Id;
  label: string;
  icon: LucideIcon;
  badge?: number;
}

interface ProfileTabsProps<Id extends string> {
  tabs: TabDef<Id>[];
  active: Id;
  onSelect: (id: Id) => void;
  label: string;
}

export const tabId = (id: string) => `profile-tab-${id}`;
export const panelId = (id: string) => `profile-panel-${id}`;

/** WAI-ARIA tabs: one tab stop, arrow keys move between tabs, Home/End jump to the ends. */
export function ProfileTabs<Id extends string>({ tabs, active, onSelect, label }: ProfileTabsProps<Id>) {
  // Drawn by the server (/me), the tabs wait for the scripts: a tap before would do nothing.
  const hydrated = useHydrated();
  const refs = useRef(new Map<Id, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    let next: number | null = null;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    const target = next === null ? undefined : tabs[next];
    if (!target) return;
    event.preventDefault();
    onSelect(target.id);
    refs.current.get(target.id)?.focus();
  };

  // Every tab is in view at every width, never behind a sideways scroll a rider would not
  // notice: on phones a grid of tiles (icon over label, two columns below 400 px, three
  // above: the longest label, Announcements, needs that width whole), from md up one strip that wraps if it must.
  return (
    <div
      role="tablist"
      aria-label={label}
      className="grid grid-cols-2 gap-1.5 min-[400px]:grid-cols-3 sm:grid-cols-4 md:flex md:flex-wrap md:gap-1 md:border-b-2 md:border-ink-700 md:pb-px"
    >
      {tabs.map((tab, index) => {
        const selected = tab.id === active;
        const Icon = tab.icon;
        return (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) refs.current.set(tab.id, el);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={tabId(tab.id)}
            aria-selected={selected}
            aria-controls={panelId(tab.id)}
            tabIndex={selected ? 0 : -1}
            disabled={!hydrated}
            onClick={() => onSelect(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={`relative flex min-h-16 min-w-0 flex-col items-center justify-center gap-1 rounded-md border-2 px-1 py-2 text-center font-display text-sm tracking-wider uppercase transition-colors md:-mb-0.5 md:min-h-12 md:flex-row md:gap-2 md:rounded-b-none md:border-0 md:border-b-4 md:px-2 md:py-0 md:text-base md:tracking-wide md:whitespace-nowrap ${
              selected
                ? 'border-fire-500 bg-fire-500/15 text-fire-300 md:bg-ink-900'
                : 'border-ink-700 bg-ink-900 text-ash hover:border-ink-600 hover:text-bone md:border-transparent md:bg-transparent md:hover:bg-ink-900'
            }`}
          >
            <Icon className="size-5 shrink-0" aria-hidden="true" />
            <span>{tab.label}</span>
            {tab.badge ? (
              <span className="absolute top-1 right-1 rounded-full bg-ember-600 px-1.5 py-0.5 font-sans text-xs leading-none font-bold text-white md:static md:px-2">
                {tab.badge}
                <span className="sr-only"> unread</span>
              </span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
