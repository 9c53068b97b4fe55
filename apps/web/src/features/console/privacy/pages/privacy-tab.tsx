// The console's Privacy tab (DESIGN.md §12): the privacy notice and terms, who looked at
// riders' sensitive fields and the breach kit, erasure requests, and a rider's data for a
// request that came by letter. Each panel shows to the permission its calls need.
import { can } from '@rally/shared/permissions';
import { ShieldCheck } from 'lucide-react';
import { useAuth } from '../../../../lib/auth';
import { TabHeading } from '../../components/tab-heading';
import { DataAccessPanel } from '../components/data-access-panel';
import { ErasureRequestsPanel } from '../components/erasure-requests-panel';
import { LetterExportPanel } from '../components/letter-export-panel';
import { NoticeEditor } from '../components/notice-editor';

export default function PrivacyTab() {
  const { user } = useAuth();
  return (
    <div className="grid gap-8">
      <TabHeading title="Privacy" icon={ShieldCheck} />
      {can(user?.role, 'view_logs') && <DataAccessPanel />}
      {can(user?.role, 'delete_user') && <ErasureRequestsPanel />}
      {can(user?.role, 'delete_user') && <LetterExportPanel />}
      {can(user?.role, 'manage_event') && <NoticeEditor />}
    </div>
  );
}
