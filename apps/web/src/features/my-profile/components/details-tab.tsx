import {
  BIKE_CHECK_STATUSES,
  DEFAULT_BIKE_CHECK_STATUS,
  DEFAULT_RIDER_KIT_STATUS,
} from '@rally/shared/catalog/console';
import { categoryDisplay, PAYMENT_METHOD_LABELS, type PaymentMethod } from '@rally/shared/catalog/registration';
import type { UserRecord } from '@rally/shared/contracts/auth';
import { useQueryClient } from '@tanstack/react-query';
import { Bike, HeartPulse, IdCard, Package, Pencil, Phone, Shirt } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { HydratedButton } from '../../../components/ui/hydrated-button';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatRiderNumber } from '../../../lib/format';
import { roleLabel } from '../../public-profile/components/rider-badges';
import { fullNameOf } from '../../public-profile/lib/names';
import { myKeys } from '../api/my-profile-api';

// The form and its validation load when Edit is pressed, not with My Profile's first screen.
const MyDetailsForm = lazy(() => import('./my-details-form').then((m) => ({ default: m.MyDetailsForm })));

const orElse = (value: string | null | undefined, fallback: string) => (value?.trim() ? value.trim() : fallback);

function sizeText(size: string | null, custom: string | null): string {
  if (!size) return 'Not specified';
  return size === 'CUSTOM' && custom ? `CUSTOM (${custom})` : size;
}

/** Statuses the kit crew sets on the day; shown here, never edited here. */
const STATUS_STYLES: Record<string, string> = {
  'Not Started': 'border-ink-600 bg-ink-800 text-ash',
  Preparing: 'border-gold-500 bg-gold-500/15 text-gold-300',
  Ready: 'border-jade-400 bg-jade-600/20 text-jade-400',
  Deployed: 'border-fire-500 bg-fire-500/15 text-fire-300',
};

/** `editable` is false offline: the edit needs the server, the details stay readable. */
export function DetailsTab({ user, editable = true }: { user: UserRecord; editable?: boolean }) {
  const category = categoryDisplay(user.category, { gender: user.gender });
  const verified = user.verificationStatus === 'verified';
  const bikeCheck = DEFAULT_BIKE_CHECK_STATUS;
  const riderKit = DEFAULT_RIDER_KIT_STATUS;
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const closeForm = () => {
    returnFocus.current = true;
    setEditing(false);
  };
  // Back to the button that opened the form once it is rendered again, so a keyboard user
  // keeps their place (a frame callback could run before React has put the button back).
  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    editButton.current?.focus();
  }, [editing]);
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <h2 className="sr-only">My Details</h2>
      {editable && (
        <div className="md:col-span-2">
          {editing ? (
            <Suspense fallback={<Spinner label="Loading..." className="py-6" />}>
              <MyDetailsForm
                user={user}
                onCancel={closeForm}
                onSaved={async () => {
                  // The profile query re-reads the user record and stores it for the whole site.
                  await queryClient.invalidateQueries({ queryKey: myKeys.profile });
                  closeForm();
                }}
              />
            </Suspense>
          ) : (
            <div className="flex flex-col gap-2 rounded-lg border border-ink-700 bg-ink-850 p-4 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-ash">Keep your phone, address, emergency contact and medical notes up to date.</p>
              {/* Drawn by the server (/me), the button waits for the scripts. */}
              <HydratedButton
                ref={editButton}
                onClick={() => setEditing(true)}
                className={buttonStyles('secondary', 'md', 'shrink-0')}
              >
                <Pencil className="size-5" aria-hidden="true" />
                Edit My Details
              </HydratedButton>
            </div>
          )}
        </div>
      )}
      <DetailCard title="Warrior Identity" icon={<IdCard className="size-6" aria-hidden="true" />}>
        <Row label="Full Name" value={fullNameOf(user)} />
        <Row label="Kit Name" value={orElse(user.kitName, 'Not specified')} />
        <Row
          label="Rider Number"
          value={user.riderNumber === null ? 'Not Available' : `#${formatRiderNumber(user.riderNumber)}`}
        />
        <Row label="Rank" value={roleLabel(user.role)} />
        <Row label="Category" value={user.category ? `${category.name} · ${category.distance}` : 'Not specified'} />
        <Row
          label="Verification"
          value={verified ? 'VERIFIED' : user.verificationStatus === 'rejected' ? 'REJECTED' : 'PENDING'}
          tone={verified ? 'text-jade-400' : 'text-gold-300'}
        />
        <Row label="Verification Code" value={orElse(user.verificationCode, 'Not Available')} mono />
      </DetailCard>

      <DetailCard title="Contact" icon={<Phone className="size-6" aria-hidden="true" />}>
        <Row label="Email" value={orElse(user.email, 'Not provided')} />
        <Row label="Phone" value={orElse(user.phoneNumber, 'Not provided')} />
        <Row label="Address" value={orElse(user.address, 'Not provided')} />
        <Row label="Birthdate" value={user.birthdate ? formatDate(`${user.birthdate}T00:00:00`) : 'Not provided'} />
      </DetailCard>

      <DetailCard title="Motorcycle & Club" icon={<Bike className="size-6" aria-hidden="true" />}>
        <Row label="Motorcycle" value={orElse(user.motorcycleModel, 'Not specified')} />
        <Row label="Club" value={orElse(user.clubName, 'Not specified')} />
        <Row
          label="Payment"
          value={
            user.paymentMethod
              ? (PAYMENT_METHOD_LABELS[user.paymentMethod as PaymentMethod] ?? user.paymentMethod)
              : 'Not specified'
          }
        />
      </DetailCard>

      <DetailCard title="Emergency & Medical" icon={<HeartPulse className="size-6" aria-hidden="true" />}>
        <Row label="Emergency Contact" value={orElse(user.emergencyContactName, 'Not provided')} />
        <Row label="Emergency Number" value={orElse(user.emergencyContactNumber, 'Not provided')} />
        <Row label="Blood Type" value={orElse(user.bloodType, 'Not specified')} />
        <Row label="Allergies" value={orElse(user.allergies, 'No known allergies')} />
        <Row label="Medical Conditions" value={orElse(user.medicalConditions, 'None recorded')} />
      </DetailCard>

      <DetailCard title="Sizes" icon={<Shirt className="size-6" aria-hidden="true" />}>
        <Row label="T-shirt" value={sizeText(user.tshirtSize, user.customTshirtSize)} />
        <Row label="Finisher Sleeve" value={sizeText(user.finisherSleeveSize, user.customFinisherSleeveSize)} />
        <Row label="Vest" value={sizeText(user.vestSize, user.customVestSize)} />
      </DetailCard>

      <DetailCard
        title="Rally Readiness"
        icon={<Package className="size-6" aria-hidden="true" />}
        note={`Set by the kit crew as your bike and kit move through ${BIKE_CHECK_STATUSES.slice(1).join(', ')}.`}
      >
        <StatusRow label="Bike Check" value={bikeCheck} />
        <StatusRow label="Rider Kit" value={riderKit} />
      </DetailCard>
    </div>
  );
}

function DetailCard({
  title,
  icon,
  note,
  children,
}: {
  title: string;
  icon: ReactNode;
  note?: string;
  children: ReactNode;
}) {
  return (
    <section className="rounded-lg border border-ink-700 bg-ink-850 p-4">
      <h3 className="flex items-center gap-2 text-xl text-fire-300">
        <span className="text-fire-400">{icon}</span>
        {title}
      </h3>
      <dl className="mt-3 divide-y divide-ink-700">{children}</dl>
      {note && <p className="mt-3 text-xs text-smoke">{note}</p>}
    </section>
  );
}

function Row({ label, value, tone, mono }: { label: string; value: string; tone?: string; mono?: boolean }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2">
      <dt className="text-sm font-bold uppercase tracking-wide text-smoke">{label}</dt>
      <dd className={`min-w-0 wrap-anywhere text-right ${mono ? 'font-mono' : ''} ${tone ?? 'text-bone'}`}>{value}</dd>
    </div>
  );
}

function StatusRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <dt className="text-sm font-bold uppercase tracking-wide text-smoke">{label}</dt>
      <dd>
        <span
          className={`inline-block rounded-full border px-3 py-1 text-xs font-bold uppercase tracking-wide ${STATUS_STYLES[value] ?? STATUS_STYLES['Not Started']}`}
        >
          {value}
        </span>
      </dd>
    </div>
  );
}
