// What an erasure removes and what is kept by law or purpose: the rules of
// apps/server/src/modules/users/personal-data.ts, in a rider's words.
import { Archive, Trash2 } from 'lucide-react';

const GOES = [
  'Your account, profile, photo and sign-in',
  'Your entries in every edition: number, codes, sizes, payment and receipts',
  'Contact details, emergency contact and medical notes',
  'Your positions, SOS notes, followers, consents and data downloads',
];

const STAYS = [
  'Results, checkpoint times and finisher counts, under the rider number only, without your name',
  'The staff’s audit trail of who did what, with the name you had (your email, phone and codes cut out)',
  'The organiser’s bank statement as uploaded, and the sign-in security log without your email',
  'A line saying that your account was erased, when, and why',
];

export function ErasureWhatStays() {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="rounded-md border border-ink-700 bg-ink-900 p-3">
        <h3 className="mb-2 flex items-center gap-2 text-lg text-bone">
          <Trash2 className="size-5 text-ember-400" aria-hidden="true" />
          What goes
        </h3>
        <ul className="list-disc space-y-1 pl-5 text-sm text-ash">
          {GOES.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <div className="rounded-md border border-ink-700 bg-ink-900 p-3">
        <h3 className="mb-2 flex items-center gap-2 text-lg text-bone">
          <Archive className="size-5 text-gold-300" aria-hidden="true" />
          What stays, by law or purpose
        </h3>
        <ul className="list-disc space-y-1 pl-5 text-sm text-ash">
          {STAYS.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
