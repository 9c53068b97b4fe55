import { Settings } from 'lucide-react';
import { ChangePasswordForm } from '../../../auth/components/change-password-form';
import { NotificationSettings } from '../../../my-profile/notifications/notification-settings';
import { TabHeading } from '../../components/tab-heading';
import { MessagesSection } from '../../messages/components/messages-section';
import { EventSettingsSection } from '../components/event-settings-form';

/**
 * Settings: the event-wide settings (issue 18), the messages' channels and delivery log, and
 * the signed-in staff member's own notifications (on call) and password.
 */
export default function SettingsTab() {
  return (
    <section>
      <TabHeading title="Settings" icon={Settings} />
      <div className="flex flex-col gap-6">
        <EventSettingsSection />
        <MessagesSection />
        {/* The staff member's own channels, and On call for those who handle incidents. */}
        <div className="rounded-xl border border-ink-700 bg-ink-900 p-4 sm:p-6">
          <NotificationSettings />
        </div>
        <ChangePasswordForm />
      </div>
    </section>
  );
}
