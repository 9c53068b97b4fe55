// A button that acts only after being held down (pointer, or Space/Enter on a keyboard) for
// `holdMs`, with the progress drawn across it. A tap, a click or a brush of the pocket does
// nothing but say to keep holding: an SOS must not go out by accident.
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';

interface Props {
  onConfirm: () => void;
  holdMs?: number;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
  hint?: string;
  testId?: string;
}

export function HoldToConfirmButton({
  onConfirm,
  holdMs = 1_500,
  disabled = false,
  className = '',
  children,
  hint = 'Press and hold for 1.5 seconds',
  testId,
}: Props) {
  const [progress, setProgress] = useState(0);
  const [tapped, setTapped] = useState(false);
  const startedAt = useRef<number | null>(null);
  const frame = useRef<number | undefined>(undefined);
  const hintId = useId();

  const stop = useCallback(() => {
    if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    frame.current = undefined;
    const held = startedAt.current;
    startedAt.current = null;
    setProgress(0);
    return held;
  }, []);

  useEffect(
    () => () => {
      stop();
    },
    [stop],
  );

  const begin = () => {
    if (disabled || startedAt.current !== null) return;
    setTapped(false);
    startedAt.current = performance.now();
    const tick = () => {
      if (startedAt.current === null) return;
      const p = Math.min(1, (performance.now() - startedAt.current) / holdMs);
      setProgress(p);
      if (p >= 1) {
        stop();
        onConfirm();
        return;
      }
      frame.current = requestAnimationFrame(tick);
    };
    frame.current = requestAnimationFrame(tick);
  };

  const release = () => {
    // Let go early: nothing is sent; say how it works.
    if (stop() !== null) setTapped(true);
  };

  return (
    <div className="flex flex-col items-stretch gap-2">
      <button
        type="button"
        data-testid={testId}
        disabled={disabled}
        aria-describedby={hintId}
        className={`relative overflow-hidden touch-none select-none ${className}`}
        onPointerDown={(event) => {
          if (event.button !== 0) return;
          event.currentTarget.setPointerCapture?.(event.pointerId);
          begin();
        }}
        onPointerUp={release}
        onPointerCancel={release}
        onLostPointerCapture={release}
        onKeyDown={(event) => {
          if ((event.key === ' ' || event.key === 'Enter') && !event.repeat) {
            event.preventDefault();
            begin();
          }
        }}
        onKeyUp={(event) => {
          if (event.key === ' ' || event.key === 'Enter') release();
        }}
        onBlur={release}
        // The press is the action; a click (or Enter's synthetic click) alone does nothing.
        onClick={(event) => event.preventDefault()}
        onContextMenu={(event) => event.preventDefault()}
      >
        <svg className="pointer-events-none absolute inset-0 size-full" aria-hidden="true" preserveAspectRatio="none">
          <rect x="0" y="0" height="100%" width={`${progress * 100}%`} className="fill-white/30" />
        </svg>
        <span className="relative">{children}</span>
      </button>
      <p
        id={hintId}
        className={`text-center text-sm ${tapped ? 'font-bold text-gold-300' : 'text-ash'}`}
        aria-live="polite"
      >
        {tapped ? `Keep holding: ${hint.toLowerCase()}` : hint}
      </p>
    </div>
  );
}
