// Event Day (DESIGN.md §8): the stations of the rally and the review of flagged scans.
import { Flag } from 'lucide-react';
import { TabHeading } from '../../components/tab-heading';

export default function EventDayTab() {
  return (
    <section>
      <TabHeading title="Event Day" icon={Flag} />
    </section>
  );
}
