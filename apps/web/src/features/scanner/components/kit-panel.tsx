// At a kit station the scan opens the rider's kit (issue 14): staff with manage_kits hand
// over all three items in one tap, through the Kit Tracker's own route; other scanning
// roles see the kit's state read-only. Needs a connection: the kit lives on the server.
import { can } from '@rally/shared/permissions';
import { PackageCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { type ApiAnswer, call, client } from '../../../lib/api-client';
import type { User } from '../../../lib/auth';

type Kit = ApiAnswer<'/api/admin/kit-tracking/{userId}'>['data'];

const ITEMS = [
  { key: 'tshirt_given', at: 'tshirt_given_at', size: 'tshirt', label: 'T-shirt' },
  { key: 'vest_given', at: 'vest_given_at', size: 'vest', label: 'Vest' },
  { key: 'finisher_sleeve_given', at: 'finisher_sleeve_given_at', size: 'finisher_sleeve', label: 'Finisher sleeve' },
] as const;

export function KitPanel({ riderId, user, online }: { riderId: string; user: User; online: boolean }) {
  const [kit, setKit] = useState<Kit | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    setKit(null);
    setError(null);
    if (!online) return;
    call(client.GET('/api/admin/kit-tracking/{userId}', { params: { path: { userId: riderId } } }))
      .then((answer) => {
        if (!cancelled) setKit(answer.data);
      })
      .catch((err: unknown) => {
        if (!cancelled) setError(err instanceof Error ? err.message : 'The kit could not be loaded');
      });
    return () => {
      cancelled = true;
    };
  }, [riderId, online]);

  const handOver = async () => {
    setBusy(true);
    setError(null);
    try {
      const path = { userId: riderId };
      setKit((await call(client.POST('/api/admin/kit-tracking/{userId}/hand-over-all', { params: { path } }))).data);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The hand-over was not recorded');
    } finally {
      setBusy(false);
    }
  };

  const allGiven = kit ? ITEMS.every((item) => kit[item.key]) : false;
  return (
    <section
      aria-labelledby="kit-heading"
      className="rounded-xl border-2 border-fire-600 bg-ink-900 p-4"
      data-testid="kit-panel"
    >
      <h2 id="kit-heading" className="flex items-center gap-2 font-display text-2xl tracking-wider uppercase">
        <PackageCheck className="size-7 text-fire-500" aria-hidden="true" />
        Rider kit
      </h2>
      {!online && (
        <p className="mt-2 text-lg text-ash">The kit needs a connection: hand it over in the Kit Tracker later.</p>
      )}
      {online && !kit && !error && <p className="mt-2 text-lg text-ash">Loading the kit…</p>}
      {kit && (
        <ul className="mt-3 grid gap-2 sm:grid-cols-3">
          {ITEMS.map((item) => {
            const given = kit[item.key];
            const size = kit.sizes[item.size];
            return (
              <li
                key={item.key}
                data-given={given}
                className={`rounded-lg border-2 px-3 py-2 ${given ? 'border-jade-400 bg-jade-400/10' : 'border-ink-600'}`}
              >
                <p className="text-lg font-black text-bone">{`${item.label}${size ? ` · ${size}` : ''}`}</p>
                <p className={`text-base font-bold ${given ? 'text-jade-400' : 'text-gold-300'}`}>
                  {given
                    ? `Given${kit[item.at] ? ` ${new Date(kit[item.at] as string).toLocaleString()}` : ''}`
                    : 'Not given'}
                </p>
              </li>
            );
          })}
        </ul>
      )}
      {kit &&
        (can(user.role, 'manage_kits') ? (
          !allGiven && (
            <button
              type="button"
              onClick={() => void handOver()}
              disabled={busy}
              className={buttonStyles('primary', 'lg', 'mt-3 w-full')}
            >
              {busy ? 'Recording…' : 'Hand over all'}
            </button>
          )
        ) : (
          <p className="mt-3 text-base text-ash">Read-only: kit hand-over is recorded by kit staff.</p>
        ))}
      {error && (
        <p role="alert" className="mt-2 text-lg font-bold text-ember-400">
          {error}
        </p>
      )}
    </section>
  );
}
