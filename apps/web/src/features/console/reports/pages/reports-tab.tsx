import { ComingSoon } from '../../components/coming-soon';

export default function ReportsTab() {
  return <ComingSoon title="Reports" message="Reports coming soon... Exportable rally reports will appear here." />;
}
