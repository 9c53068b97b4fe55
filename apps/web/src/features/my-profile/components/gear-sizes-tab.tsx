import type { Size } from '@rally/shared/catalog/registration';
import { firstProblem, type GearSizes, gearSizesBody } from '@rally/shared/contracts/rider-kit';
import { useMutation } from '@tanstack/react-query';
import { HardHat } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { SizePicker } from '../../../components/ui/size-picker';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { submitGearSizes } from '../api/my-profile-api';

/** The one-time finisher sleeve and vest form. */
export function GearSizesTab({
  onSubmitted,
  onLocked,
}: {
  onSubmitted: (data: GearSizes) => void;
  onLocked: () => void;
}) {
  const [sleeve, setSleeve] = useState<Size | ''>('');
  const [customSleeve, setCustomSleeve] = useState('');
  const [vest, setVest] = useState<Size | ''>('');
  const [customVest, setCustomVest] = useState('');
  const mutation = useMutation({
    mutationFn: submitGearSizes,
    onSuccess: onSubmitted,
    onError: (error) => {
      toast.error(error instanceof ApiError && error.message ? error.message : 'Failed to submit gear sizes');
      if (error instanceof ApiError && error.status === 409) onLocked();
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const customs = {
      customFinisherSleeveSize: sleeve === 'CUSTOM' ? customSleeve : undefined,
      customVestSize: vest === 'CUSTOM' ? customVest : undefined,
    };
    const problem = firstProblem(gearSizesBody, {
      finisherSleeveSize: sleeve || undefined,
      vestSize: vest || undefined,
      ...customs,
    });
    if (problem) {
      toast.error(problem);
      return;
    }
    // The contract found no problem, so both sizes are chosen.
    if (sleeve && vest) mutation.mutate({ finisherSleeveSize: sleeve, vestSize: vest, ...customs });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="gear-heading" className="space-y-6">
      <div>
        <h2 id="gear-heading" className="flex items-center gap-2 text-2xl text-fire-300">
          <HardHat className="size-7 text-fire-400" aria-hidden="true" />
          Choose Your Gear Sizes
        </h2>
        <p className="mt-1 text-sm text-ash">Finisher sleeve and vest, by chest in inches. You can submit once.</p>
      </div>
      <SizePicker
        showChestGuide
        legend="Finisher sleeve size"
        itemName="finisher sleeve"
        name="finisherSleeveSize"
        value={sleeve}
        custom={customSleeve}
        onChange={setSleeve}
        onCustomChange={setCustomSleeve}
      />
      <SizePicker
        showChestGuide
        legend="Vest size"
        itemName="vest"
        name="vestSize"
        value={vest}
        custom={customVest}
        onChange={setVest}
        onCustomChange={setCustomVest}
      />
      <button type="submit" disabled={mutation.isPending} className={buttonStyles('primary', 'lg', 'w-full sm:w-auto')}>
        {mutation.isPending ? 'Submitting...' : 'Submit Gear Sizes'}
      </button>
    </form>
  );
}
