import { X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';

interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  /** Extra classes for the panel (width). */
  className?: string;
  /** Cancel on Escape/backdrop is refused while busy. */
  dismissible?: boolean;
}

/**
 * A native <dialog> opened with showModal(): the browser supplies the focus trap, the
 * inert page behind it, Escape to close and focus return, which hand-made overlays
 * routinely get wrong.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  footer,
  className = 'max-w-lg',
  dismissible = true,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click mirrors Escape, which the native dialog already handles
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (dismissible) onClose();
      }}
      onClick={(event) => {
        // A click on the dialog element itself (not its content) is a click on the backdrop.
        if (event.target === ref.current && dismissible) onClose();
      }}
      className={`m-auto max-h-[92dvh] w-[calc(100%-1.5rem)] overflow-hidden rounded-lg border-2 border-fire-600 bg-ink-900 p-0 text-bone shadow-2xl shadow-black backdrop:bg-black/80 ${className}`}
    >
      {open && (
        <div className="flex max-h-[92dvh] flex-col">
          <div className="flex items-center justify-between gap-3 border-b border-ink-700 px-5 py-4">
            <h2 id={titleId} className="text-2xl text-fire-300">
              {title}
            </h2>
            {dismissible && (
              <button
                type="button"
                onClick={onClose}
                className="rounded p-2 text-ash hover:bg-ink-800 hover:text-bone"
                aria-label="Close"
              >
                <X className="size-5" aria-hidden="true" />
              </button>
            )}
          </div>
          {/* Focusable so keyboard users can scroll long content (the terms) with the arrow keys. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
          <div tabIndex={0} className="min-h-0 flex-1 overflow-y-auto px-5 py-4 focus-visible:outline-offset-[-3px]">
            {children}
          </div>
          {footer && <div className="border-t border-ink-700 px-5 py-4">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}
