import type { ReactNode } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';

/** The empty, error and loading panels every My Profile tab shares. */
export function TabMessage({
  icon,
  title,
  children,
  onRetry,
  tone = 'neutral',
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  onRetry?: () => void;
  tone?: 'neutral' | 'error';
}) {
  return (
    <div role={tone === 'error' ? 'alert' : undefined} className="flex flex-col items-center py-10 text-center">
      {icon}
      <p className={`mt-3 font-display text-2xl tracking-wide ${tone === 'error' ? 'text-ember-400' : 'text-bone'}`}>
        {title}
      </p>
      {children && <div className="mt-2 max-w-md text-ash">{children}</div>}
      {onRetry && (
        <button type="button" onClick={onRetry} className={buttonStyles('secondary', 'md', 'mt-5')}>
          Retry
        </button>
      )}
    </div>
  );
}
