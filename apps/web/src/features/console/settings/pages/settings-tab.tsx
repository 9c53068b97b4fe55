import { Settings } from 'lucide-react';
import { ChangePasswordForm } from '../../../auth/components/change-password-form';
import { TabHeading } from '../../components/tab-heading';
import { EventSettingsSection } from '../components/event-settings-form';

/** Settings: the event-wide settings (issue 18), and the signed-in staff member's own password. */
export default function SettingsTab() {
  return (
    <section>
      <TabHeading title="Settings" icon={Settings} />
      <div className="flex flex-col gap-6">
        <EventSettingsSection />
        <ChangePasswordForm />
      </div>
    </section>
  );
}
