// The Notifications section: how the rally reaches this account when nobody is looking at the
// page. Push on this phone (the permission prompt and the subscription), then one switch per
// channel, and On call for those who handle incidents. Shown in My Profile; the staff console
// can mount it as it is.
import { MESSAGE_CHANNEL_LABELS, NOTIFICATION_CHANNEL_HINTS } from '@rally/shared/catalog/messages';
import { Bell, BellOff, BellRing, Siren } from 'lucide-react';
import { useId } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Spinner } from '../../../components/ui/spinner';
import { useOnline } from '../../../lib/offline/use-online';
import type { NotificationChoices, NotificationSettingsView } from './notifications-api';
import { PUSH_UNSUPPORTED_TEXT } from './push-browser';
import { useNotificationSettings, usePushOnThisDevice } from './use-notifications';

type Choice = keyof NotificationChoices;

/** "Email: registration, ..." -> "Registration, ...": the channel's name is the label above it. */
const hintOf = (choice: Choice) => {
  const hint = NOTIFICATION_CHANNEL_HINTS[choice].replace(/^[^:]+:\s*/, '');
  return hint.charAt(0).toUpperCase() + hint.slice(1);
};
const LABELS: Record<Choice, string> = { ...MESSAGE_CHANNEL_LABELS, onCall: 'On call' };

export function NotificationSettings() {
  const online = useOnline();
  const { query, change } = useNotificationSettings();
  return (
    <section aria-labelledby="notifications-heading" data-testid="notification-settings" className="grid gap-4">
      <div>
        <h2 id="notifications-heading" className="flex items-center gap-2 text-2xl text-fire-300">
          <Bell className="size-7 text-fire-400" aria-hidden="true" />
          Notifications
        </h2>
        <p className="mt-1 text-sm text-ash">How the rally reaches you when you are not looking at this page.</p>
      </div>
      <PushOnThisPhone online={online} devices={query.data?.pushDevices} />
      {query.isPending ? (
        <Spinner label="Loading your notification settings..." className="py-6" />
      ) : query.isError ? (
        <p role="alert" className="rounded-md border border-ember-600 bg-ember-700/15 px-3 py-2 text-ember-400">
          {online
            ? 'Failed to load your notification settings.'
            : 'You are offline: your notification settings show once you have a signal.'}{' '}
          <button type="button" onClick={() => query.refetch()} className="underline underline-offset-2">
            Retry
          </button>
        </p>
      ) : (
        <Choices settings={query.data} disabled={!online} onChange={change} />
      )}
    </section>
  );
}

function PushOnThisPhone({ online, devices }: { online: boolean; devices: number | undefined }) {
  const push = usePushOnThisDevice();
  const on = push.state === 'on';
  const others = devices === undefined ? null : Math.max(devices - (on ? 1 : 0), 0);
  return (
    <div className="rounded-lg border border-ink-700 bg-ink-850 p-4" data-testid="push-device">
      {/* Announced when it changes, but not a status role: the screen's loading indicators are. */}
      <p aria-live="polite" className="flex items-center gap-2 font-display text-lg tracking-wide text-bone">
        {on ? (
          <BellRing className="size-6 shrink-0 text-jade-400" aria-hidden="true" />
        ) : (
          <BellOff className="size-6 shrink-0 text-ash" aria-hidden="true" />
        )}
        {push.state === 'checking'
          ? 'Checking this phone...'
          : on
            ? 'Push is on for this phone'
            : 'Push is off for this phone'}
      </p>
      {push.support !== 'supported' ? (
        <p className="mt-2 text-sm text-gold-300" data-testid="push-problem">
          {PUSH_UNSUPPORTED_TEXT[push.support]}
        </p>
      ) : (
        <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
          {on ? (
            <button
              type="button"
              onClick={push.turnOff}
              disabled={push.busy || !online}
              className={buttonStyles('secondary', 'md')}
            >
              {push.busy ? 'Turning off...' : 'Turn off push on this phone'}
            </button>
          ) : (
            <button
              type="button"
              onClick={push.turnOn}
              disabled={push.busy || !online || push.state === 'checking'}
              className={buttonStyles('primary', 'md')}
            >
              {push.busy ? 'Turning on...' : 'Turn on push on this phone'}
            </button>
          )}
        </div>
      )}
      {push.problem && (
        <p
          role="alert"
          data-testid="push-problem"
          className="mt-3 rounded-md border border-ember-600 bg-ember-700/15 px-3 py-2 text-sm text-ember-400"
        >
          {push.problem}
        </p>
      )}
      {others !== null && others > 0 && (
        <p className="mt-2 text-sm text-ash">
          Also on {others} other {others === 1 ? 'device' : 'devices'} signed in to your account.
        </p>
      )}
    </div>
  );
}

function Choices({
  settings,
  disabled,
  onChange,
}: {
  settings: NotificationSettingsView;
  disabled: boolean;
  onChange: (change: NotificationChoices) => void;
}) {
  const choices: Choice[] = ['push', 'email', 'sms', ...(settings.canBeOnCall ? (['onCall'] as const) : [])];
  return (
    <ul className="grid gap-2" aria-label="Channels">
      {choices.map((choice) => (
        <li key={choice}>
          <Switch
            label={LABELS[choice]}
            hint={hintOf(choice)}
            checked={settings[choice]}
            disabled={disabled}
            urgent={choice === 'onCall'}
            onChange={(value) => onChange({ [choice]: value })}
          />
        </li>
      ))}
    </ul>
  );
}

function Switch({
  label,
  hint,
  checked,
  disabled,
  urgent,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  disabled: boolean;
  urgent: boolean;
  onChange: (value: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-3 rounded-lg border border-ink-700 bg-ink-850 px-4 py-3">
      <div className="min-w-0 flex-1">
        <p id={`${id}-label`} className="flex items-center gap-2 font-display text-lg tracking-wide text-bone">
          {urgent && <Siren className="size-5 text-ember-400" aria-hidden="true" />}
          {label}
        </p>
        <p id={`${id}-hint`} className="text-sm text-ash">
          {hint}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-hint`}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className="flex min-h-11 min-w-14 shrink-0 items-center justify-center rounded-full disabled:cursor-not-allowed disabled:opacity-60"
      >
        <span
          aria-hidden="true"
          className={`flex h-7 w-12 items-center rounded-full border-2 px-0.5 transition-colors ${
            checked ? 'justify-end border-fire-500 bg-fire-500' : 'justify-start border-ink-600 bg-ink-800'
          }`}
        >
          <span className={`size-5 rounded-full ${checked ? 'bg-ink-950' : 'bg-ash'}`} />
        </span>
      </button>
    </div>
  );
}
