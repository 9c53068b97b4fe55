import { ComingSoon } from '../../components/coming-soon';

export default function AnalyticsTab() {
  return <ComingSoon title="Analytics" message="Analytics coming soon... Rally charts and trends will appear here." />;
}
