import { ComingSoon } from '../../components/coming-soon';

export default function SettingsTab() {
  return <ComingSoon title="Settings" message="Settings panel coming soon..." />;
}
