// The console's "Who looked" (DESIGN.md §12, view_logs): the access log of riders' medical
// notes, emergency contacts, birthdates, licences and positions, by rider or by staff
// member, and the breach kit.
import { Eye } from 'lucide-react';
import { BreachKit } from './breach-kit';
import { DataAccessLog } from './data-access-log';

export function DataAccessPanel() {
  return (
    <section aria-labelledby="data-access-heading" data-testid="data-access-panel" className="grid gap-6">
      <div className="grid gap-4">
        <div>
          <h3 id="data-access-heading" className="flex items-center gap-2 text-2xl text-fire-300">
            <Eye className="size-6 shrink-0" aria-hidden="true" />
            Who looked at riders’ data
          </h3>
          <p className="mt-1 max-w-3xl text-sm text-ash">
            Every staff screen or export that showed a rider’s medical notes, emergency contact, birthdate, licence or
            position, with who, when and why. Riders see their own lines in My Profile.
          </p>
        </div>
        <DataAccessLog />
      </div>
      <div className="border-t border-ink-700 pt-6">
        <BreachKit />
      </div>
    </section>
  );
}
