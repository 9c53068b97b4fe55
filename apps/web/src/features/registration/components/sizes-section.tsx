import { SIZE_CHEST_GUIDE } from '@rally/shared/catalog/registration';
import { Ruler } from 'lucide-react';
import { SizePicker } from '../../../components/ui/size-picker';
import { type FieldErrors, fieldError } from '../lib/registration-errors';
import type { FieldSetter, RegistrationFields } from '../lib/registration-form';

const SIZE_FIELDS = [
  { legend: 'T-shirt size', itemName: 'T-shirt', name: 'tshirtSize', custom: 'customTshirtSize' },
  {
    legend: 'Finisher sleeve size',
    itemName: 'finisher sleeve',
    name: 'finisherSleeveSize',
    custom: 'customFinisherSleeveSize',
  },
  { legend: 'Vest size', itemName: 'vest', name: 'vestSize', custom: 'customVestSize' },
] as const;

export function SizesSection({
  fields,
  set,
  errors,
}: {
  fields: RegistrationFields;
  set: FieldSetter;
  errors: FieldErrors;
}) {
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_15rem]">
      <div className="space-y-6">
        {SIZE_FIELDS.map((f) => (
          <SizePicker
            key={f.name}
            legend={f.legend}
            itemName={f.itemName}
            name={f.name}
            value={fields[f.name]}
            custom={fields[f.custom]}
            onChange={(size) => set(f.name, size)}
            onCustomChange={(text) => set(f.custom, text)}
            error={fieldError(errors, f.name)}
            customError={fieldError(errors, f.custom)}
          />
        ))}
        <p className="rounded-md border-l-4 border-gold-400 bg-ink-950 px-4 py-3 text-sm text-ash">
          <span className="font-bold text-gold-300">Tip:</span> choose CUSTOM for your finisher sleeve and vest if no
          standard size fits, and type your measurements.
        </p>
      </div>
      <div className="self-start rounded-lg border border-ink-700 bg-ink-950 p-4">
        <h3 className="flex items-center gap-2 text-xl text-fire-300">
          <Ruler className="size-5" aria-hidden="true" />
          Sizing guide
        </h3>
        <table className="mt-3 w-full text-sm">
          <caption className="sr-only">Sizes by chest measurement in inches</caption>
          <thead>
            <tr className="border-b border-ink-700 text-left text-ash">
              <th scope="col" className="py-1.5 font-bold">
                Size
              </th>
              <th scope="col" className="py-1.5 font-bold">
                Chest (in)
              </th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(SIZE_CHEST_GUIDE).map(([size, chest]) => (
              <tr key={size} className="border-b border-ink-800 last:border-0">
                <th scope="row" className="py-1.5 text-left font-bold text-bone">
                  {size}
                </th>
                <td className="py-1.5 text-ash">{chest}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
