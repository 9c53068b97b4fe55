import { registrationClosedMessage } from '@rally/shared/catalog/editions';
import { useQuery } from '@tanstack/react-query';
import { CalendarX } from 'lucide-react';
import { editionsQuery } from '../../../lib/editions';

/**
 * Outside the current edition's registration window, says so before a rider fills in the
 * form, with the dates: the same words the server refuses a registration with. The form
 * stays (what is typed is kept on the phone as a draft), ready for the day it opens.
 */
export function RegistrationWindowNotice() {
  const { data: editions } = useQuery(editionsQuery());
  const current = editions?.find((e) => e.current);
  if (!current || current.registration === 'open') return null;
  const message = registrationClosedMessage(current.name, current, new Date());
  if (!message) return null;
  return (
    <div
      role="status"
      className="mb-6 flex items-start gap-3 rounded-xl border-2 border-ember-400 bg-ink-900 p-4 sm:p-5"
      data-testid="registration-closed"
    >
      <CalendarX className="size-7 shrink-0 text-ember-400" aria-hidden="true" />
      <p className="text-lg font-bold text-bone">{message}</p>
    </div>
  );
}
