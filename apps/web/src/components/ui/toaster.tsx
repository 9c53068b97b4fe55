import { TOAST_ERROR_MS, TOAST_LIMIT, TOAST_SUCCESS_MS } from '@rally/shared/catalog/web-client';
import { CircleCheck, CircleX, LoaderCircle, X } from 'lucide-react';
import { resolveValue, useToaster } from 'react-hot-toast/headless';
import { toast } from '../../lib/toast';

const toastOptions = {
  error: { duration: TOAST_ERROR_MS },
  success: { duration: TOAST_SUCCESS_MS },
};

/** Renders the toast queue (see lib/toast.ts for why this is not react-hot-toast's <Toaster>). */
export function Toaster() {
  const { toasts, handlers } = useToaster(toastOptions);
  const shown = toasts.slice(0, TOAST_LIMIT);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pausing on hover is a mouse nicety; each toast has a dismiss button
    <div
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] flex flex-col items-center gap-2 p-3 pt-[max(0.75rem,env(safe-area-inset-top))]"
      onMouseEnter={handlers.startPause}
      onMouseLeave={handlers.endPause}
    >
      {shown.map((t) => (
        <div
          key={t.id}
          {...t.ariaProps}
          data-testid="toast"
          data-type={t.type}
          className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-md border-l-4 bg-ink-800 px-4 py-3 text-sm font-semibold text-bone shadow-xl shadow-black/60 ring-1 ring-ink-600 transition-all duration-200 ${
            t.visible ? 'translate-y-0 opacity-100' : 'pointer-events-none -translate-y-2 opacity-0'
          } ${t.type === 'error' ? 'border-ember-500' : t.type === 'success' ? 'border-jade-400' : 'border-fire-500'}`}
        >
          <span className="mt-0.5 shrink-0" aria-hidden="true">
            {t.type === 'success' && <CircleCheck className="size-5 text-jade-400" />}
            {t.type === 'error' && <CircleX className="size-5 text-ember-400" />}
            {t.type === 'loading' && <LoaderCircle className="size-5 animate-spin text-fire-400" />}
            {t.type !== 'success' && t.type !== 'error' && t.type !== 'loading' && (t.icon ?? null)}
          </span>
          <span className="min-w-0 flex-1 wrap-anywhere">{resolveValue(t.message, t)}</span>
          {t.type !== 'loading' && (
            <button
              type="button"
              onClick={() => toast.dismiss(t.id)}
              className="-m-1 shrink-0 rounded p-1 text-ash hover:text-bone"
              aria-label="Dismiss notification"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
