import type { LucideIcon } from 'lucide-react';
import { type KeyboardEvent, useRef } from 'react';

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
    refs.current.get(target.id)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  };

  return (
    <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto border-b-2 border-ink-700 pb-px">
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
            onClick={(event) => {
              onSelect(tab.id);
              // On a phone the strip scrolls sideways: keep the chosen tab in view.
              event.currentTarget.scrollIntoView({ block: 'nearest', inline: 'nearest' });
            }}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={`-mb-0.5 flex min-h-12 shrink-0 items-center gap-2 rounded-t-md border-b-4 px-3 font-display text-base tracking-wider uppercase whitespace-nowrap transition-colors ${
              selected
                ? 'border-fire-500 bg-ink-900 text-fire-300'
                : 'border-transparent text-ash hover:bg-ink-900 hover:text-bone'
            }`}
          >
            <Icon className="size-5" aria-hidden="true" />
            {tab.label}
            {tab.badge ? (
              <span className="rounded-full bg-ember-600 px-2 py-0.5 font-sans text-xs font-bold text-white">
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
