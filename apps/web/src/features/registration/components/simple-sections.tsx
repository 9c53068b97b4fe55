import { TextField } from '../../../components/ui/text-field';
import type { FieldSetter, RegistrationFields } from '../lib/registration-form';

export function EmergencyContactSection({ fields, set }: { fields: RegistrationFields; set: FieldSetter }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Contact name"
        name="emergencyContactName"
        autoComplete="off"
        value={fields.emergencyContactName}
        onChange={(e) => set('emergencyContactName', e.target.value)}
      />
      <TextField
        label="Contact number"
        name="emergencyContactNumber"
        type="tel"
        inputMode="tel"
        autoComplete="off"
        value={fields.emergencyContactNumber}
        onChange={(e) => set('emergencyContactNumber', e.target.value)}
      />
    </div>
  );
}

export function MotorcycleSection({ fields, set }: { fields: RegistrationFields; set: FieldSetter }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Motorcycle model"
        name="motorcycleModel"
        placeholder="e.g. Honda XR150L"
        value={fields.motorcycleModel}
        onChange={(e) => set('motorcycleModel', e.target.value)}
      />
      <TextField
        label="Club name"
        name="clubName"
        placeholder="Leave blank if riding solo"
        value={fields.clubName}
        onChange={(e) => set('clubName', e.target.value)}
      />
    </div>
  );
}
