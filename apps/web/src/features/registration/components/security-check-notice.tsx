import { ShieldCheck } from 'lucide-react';

/**
 * Says why sending takes a moment longer while the phone solves the server's security
 * check (lib/registration-challenge.ts). The live region is always there, so a screen
 * reader hears the message when it appears.
 */
export function SecurityCheckNotice({ active }: { active: boolean }) {
  return (
    <div role="status" aria-live="polite">
      {active && (
        <div
          className="flex items-start gap-3 rounded-xl border-2 border-gold-400 bg-ink-900 p-4"
          data-testid="security-check"
        >
          <ShieldCheck className="mt-0.5 size-7 shrink-0 animate-pulse text-gold-300" aria-hidden="true" />
          <p className="text-bone">
            <span className="font-bold text-gold-300">Running a quick security check…</span> Many riders are registering
            from your network right now, so your device does a short check before sending. It takes a few seconds;
            everything you entered stays as it is.
          </p>
        </div>
      )}
    </div>
  );
}
