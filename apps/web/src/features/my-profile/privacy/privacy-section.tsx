// My Profile's privacy section, below My Details (DESIGN.md §12): the rider's consents and the notice they accepted,
// who on the staff read their sensitive fields, their data as a download, and erasure.
import { ConsentsCard } from './consents-card';
import { DataExportCard } from './data-export-card';
import { ErasureCard } from './erasure-card';
import { WhoLookedCard } from './who-looked-card';

export function PrivacySection() {
  return (
    <div className="grid gap-6 [&>*+*]:border-t [&>*+*]:border-ink-700 [&>*+*]:pt-6">
      <ConsentsCard />
      <WhoLookedCard />
      <DataExportCard />
      <ErasureCard />
    </div>
  );
}
