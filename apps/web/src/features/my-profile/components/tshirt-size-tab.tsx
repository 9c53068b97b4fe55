import type { Size } from '@rally/shared/catalog/registration';
import { firstProblem, type TshirtStatus, tshirtSizeBody } from '@rally/shared/contracts/rider-kit';
import { useMutation } from '@tanstack/react-query';
import { Shirt } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { SizePicker } from '../../../components/ui/size-picker';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { submitTshirtSize } from '../api/my-profile-api';

/** The one-time T-shirt size form; `onSubmitted` hides the tab once the celebration is over. */
export function TshirtSizeTab({
  onSubmitted,
  onLocked,
}: {
  onSubmitted: (data: TshirtStatus) => void;
  onLocked: () => void;
}) {
  const [size, setSize] = useState<Size | ''>('');
  const [custom, setCustom] = useState('');
  const mutation = useMutation({
    mutationFn: submitTshirtSize,
    onSuccess: onSubmitted,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        toast.error(error.message);
        onLocked();
      } else {
        toast.error('Failed to submit T-shirt size');
      }
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const customSize = size === 'CUSTOM' ? custom : undefined;
    const problem = firstProblem(tshirtSizeBody, { size: size || undefined, customSize });
    if (problem) {
      toast.error(problem);
      return;
    }
    // The contract found no problem, so a size is chosen.
    if (size) mutation.mutate({ size, customSize });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="tshirt-heading">
      <h2 id="tshirt-heading" className="flex items-center gap-2 text-2xl text-fire-300">
        <Shirt className="size-7 text-fire-400" aria-hidden="true" />
        Choose Your T-shirt Size
      </h2>
      <p className="mt-1 mb-5 text-sm text-ash">
        Sizes by chest, in inches. You can submit once: check the guide before you lock it in.
      </p>
      <SizePicker
        showChestGuide
        legend="T-shirt size"
        itemName="T-shirt"
        name="tshirtSize"
        value={size}
        custom={custom}
        onChange={setSize}
        onCustomChange={setCustom}
      />
      <button
        type="submit"
        disabled={mutation.isPending}
        className={buttonStyles('primary', 'lg', 'mt-6 w-full sm:w-auto')}
      >
        {mutation.isPending ? 'Submitting...' : 'Submit T-shirt Size'}
      </button>
    </form>
  );
}
