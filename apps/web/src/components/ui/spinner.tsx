import { LoaderCircle } from 'lucide-react';

export function Spinner({ label, className = '' }: { label: string; className?: string }) {
  return (
    <div role="status" className={`flex flex-col items-center gap-3 text-ash ${className}`}>
      <LoaderCircle className="size-10 animate-spin text-fire-500" aria-hidden="true" />
      <span className="font-display text-lg tracking-wider">{label}</span>
    </div>
  );
}

export function FullScreenSpinner({ label }: { label: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-ink-950 px-6">
      <Spinner label={label} />
    </div>
  );
}
