// Event-wide settings (issue 18): the event's name and dates, and the emergency hotline a
// rider's SOS offers to call or text when it cannot reach the server. Editable with
// manage_event; everyone else with the tab reads them.
import { EVENT_NAME_MAX, HOTLINE_MAX } from '@rally/shared/catalog/event-day';
import { type EventSettings, updateEventSettingsRequest } from '@rally/shared/contracts/settings';
import { can } from '@rally/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarDays, Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { TextField } from '../../../../components/ui/text-field';
import { ApiError } from '../../../../lib/api-client';
import { useAuth } from '../../../../lib/auth';
import { editionsKey } from '../../../../lib/editions';
import { eventSettingsKey, eventSettingsQuery } from '../../../../lib/event-settings';
import { toast } from '../../../../lib/toast';
import { QueryStates } from '../../components/list-states';
import { saveEventSettings } from '../api/settings-api';

export function EventSettingsSection() {
  const query = useQuery(eventSettingsQuery());
  return (
    <section
      aria-labelledby="event-settings-heading"
      className="rounded-xl border border-ink-700 bg-ink-900 p-4 sm:p-6"
    >
      <h3 id="event-settings-heading" className="mb-4 flex items-center gap-2 text-2xl text-bone">
        <CalendarDays className="size-6 text-fire-400" aria-hidden="true" />
        Event
      </h3>
      <QueryStates query={query} loadingLabel="Loading event settings..." errorMessage="Failed to load event settings">
        {(settings) => <EventSettingsForm settings={settings} />}
      </QueryStates>
    </section>
  );
}

function EventSettingsForm({ settings }: { settings: EventSettings }) {
  const { user } = useAuth();
  const canEdit = can(user?.role, 'manage_event');
  const queryClient = useQueryClient();
  const [name, setName] = useState(settings.name);
  const [startsOn, setStartsOn] = useState(settings.startsOn ?? '');
  const [endsOn, setEndsOn] = useState(settings.endsOn ?? '');
  const [hotline, setHotline] = useState(settings.hotline ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    setName(settings.name);
    setStartsOn(settings.startsOn ?? '');
    setEndsOn(settings.endsOn ?? '');
    setHotline(settings.hotline ?? '');
  }, [settings]);

  const save = useMutation({
    mutationFn: saveEventSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(eventSettingsKey, saved);
      // They are the current edition's: the Editions tab (and the form's notice) read them too.
      void queryClient.invalidateQueries({ queryKey: editionsKey });
      setProblem(null);
      toast.success('Event settings saved');
    },
    onError: (error) => setProblem(error instanceof ApiError ? error.message : 'Failed to save the event settings'),
  });

  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        const body = {
          name: name.trim(),
          startsOn: startsOn || null,
          endsOn: endsOn || null,
          hotline: hotline.trim() || null,
        };
        // The same contract the server holds it to: the first problem, named, before any call.
        const parsed = updateEventSettingsRequest.safeParse(body);
        if (!parsed.success) {
          setProblem(parsed.error.issues[0]?.message ?? 'Check the fields');
          return;
        }
        save.mutate(parsed.data);
      }}
    >
      <TextField
        label="Event name"
        className="sm:col-span-2"
        value={name}
        maxLength={EVENT_NAME_MAX}
        required
        disabled={!canEdit}
        onChange={(e) => setName(e.target.value)}
      />
      <TextField
        label="Starts on"
        type="date"
        value={startsOn}
        disabled={!canEdit}
        onChange={(e) => setStartsOn(e.target.value)}
      />
      <TextField
        label="Ends on"
        type="date"
        value={endsOn}
        disabled={!canEdit}
        onChange={(e) => setEndsOn(e.target.value)}
      />
      <TextField
        label="Emergency hotline"
        className="sm:col-span-2"
        type="tel"
        inputMode="tel"
        value={hotline}
        maxLength={HOTLINE_MAX}
        disabled={!canEdit}
        placeholder="+63 917 555 0101"
        hint="Riders' SOS offers to call or text this number when it cannot reach the server. Empty: they are pointed to 911."
        onChange={(e) => setHotline(e.target.value)}
      />
      {problem && (
        <p role="alert" className="font-bold text-ember-400 sm:col-span-2">
          {problem}
        </p>
      )}
      {canEdit ? (
        <div className="sm:col-span-2">
          <button type="submit" className={buttonStyles('primary')} disabled={save.isPending}>
            <Save className="size-5" aria-hidden="true" />
            {save.isPending ? 'Saving...' : 'Save Event Settings'}
          </button>
        </div>
      ) : (
        <p className="text-sm text-ash sm:col-span-2">
          Read only: organisers with event management access change these.
        </p>
      )}
    </form>
  );
}
