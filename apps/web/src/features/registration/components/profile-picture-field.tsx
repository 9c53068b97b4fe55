import { Camera, UserRound } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { toast } from '../../../lib/toast';

const CropDialog = lazy(() => import('./crop-dialog'));

interface ProfilePictureFieldProps {
  value: File | null;
  onChange: (file: File | null) => void;
}

export function ProfilePictureField({ value, onChange }: ProfilePictureFieldProps) {
  const inputId = useId();
  const [source, setSource] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!value) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(value);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [value]);

  useEffect(() => {
    if (!source) return;
    return () => URL.revokeObjectURL(source);
  }, [source]);

  const onFile = (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Reset so choosing the same file again still fires a change.
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast.error('Please select a valid image file');
      return;
    }
    setSource(URL.createObjectURL(file));
  };

  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row">
      <div className="relative size-28 shrink-0 overflow-hidden rounded-full border-4 border-fire-500 bg-ink-800">
        {preview ? (
          <img src={preview} alt="Your cropped profile" className="size-full object-cover" />
        ) : (
          <UserRound className="size-full p-5 text-ink-600" aria-hidden="true" />
        )}
      </div>
      <div className="text-center sm:text-left">
        <p className="text-sm font-bold tracking-wide text-ash uppercase">Warrior portrait</p>
        <p className="mt-1 text-sm text-smoke">A clear photo of your face, for your profile and rider ID.</p>
        <div className="mt-3 flex flex-wrap justify-center gap-2 sm:justify-start">
          <label
            htmlFor={inputId}
            className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-md border-2 border-fire-500 px-4 py-2 font-display tracking-wider text-fire-300 uppercase hover:bg-fire-500/10 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400"
          >
            <Camera className="size-5" aria-hidden="true" />
            {value ? 'Change photo' : 'Choose photo'}
            <input
              id={inputId}
              type="file"
              accept="image/*"
              onChange={onFile}
              className="sr-only"
              data-testid="profile-image-input"
            />
          </label>
          {value && (
            <button
              type="button"
              onClick={() => onChange(null)}
              className="min-h-11 rounded-md px-3 text-sm font-bold text-ash underline underline-offset-4 hover:text-bone"
            >
              Remove
            </button>
          )}
        </div>
      </div>
      {source && (
        <Suspense fallback={null}>
          <CropDialog
            src={source}
            onCancel={() => setSource(null)}
            onCropped={(file) => {
              onChange(file);
              setSource(null);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
