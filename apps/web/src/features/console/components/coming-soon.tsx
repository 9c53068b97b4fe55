import { Hammer } from 'lucide-react';

export function ComingSoon({ title, message }: { title: string; message: string }) {
  return (
    <section className="flex flex-col items-center rounded-lg border border-dashed border-ink-600 px-4 py-16 text-center">
      <Hammer className="size-12 text-fire-400" aria-hidden="true" />
      <h2 className="mt-4 text-3xl">{title}</h2>
      <p className="mt-2 max-w-md text-ash">{message}</p>
    </section>
  );
}
