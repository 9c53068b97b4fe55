import { ADMIN_PANEL_ROLES } from '@rally/shared/catalog/accounts';
import { LayoutDashboard, LogOut, Menu } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';
import { HydratedButton } from '../../../components/ui/hydrated-button';

interface ProfileMenuProps {
  role: string;
  onLogout: () => void;
}

/** The account menu: Admin Panel for staff, and Logout. A disclosure, closed by Escape or a click elsewhere. */
export function ProfileMenu({ role, onLogout }: ProfileMenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const showAdmin = (ADMIN_PANEL_ROLES as readonly string[]).includes(role);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const itemStyles =
    'flex min-h-11 w-full items-center gap-3 rounded-md px-3 py-2 text-left font-bold text-bone hover:bg-ink-700 focus-visible:bg-ink-700';

  return (
    <div ref={rootRef} className="relative">
      {/* Drawn by the server (/me), the menu waits for the scripts. */}
      <HydratedButton
        ref={buttonRef}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
        className={buttonStyles('ghost', 'md', 'px-3')}
      >
        <Menu className="size-6" aria-hidden="true" />
        <span className="sr-only">Account menu</span>
      </HydratedButton>
      <div
        id={menuId}
        hidden={!open}
        className="absolute right-0 z-30 mt-2 w-56 rounded-lg border border-ink-600 bg-ink-800 p-2 shadow-2xl shadow-black"
      >
        <ul>
          {showAdmin && (
            <li>
              <Link to="/admin" className={itemStyles} onClick={() => setOpen(false)}>
                <LayoutDashboard className="size-5 text-fire-400" aria-hidden="true" />
                Admin Panel
              </Link>
            </li>
          )}
          <li>
            <button
              type="button"
              className={itemStyles}
              onClick={() => {
                setOpen(false);
                onLogout();
              }}
            >
              <LogOut className="size-5 text-ember-400" aria-hidden="true" />
              Logout
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
