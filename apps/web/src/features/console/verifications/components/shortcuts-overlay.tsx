// The verification desk's keyboard shortcuts, opened with `?`.
import { Modal } from '../../../../components/ui/modal';

export const DESK_SHORTCUTS: { keys: string[]; what: string }[] = [
  { keys: ['j', '↓', '→'], what: 'Next rider (arrows while the receipt is open)' },
  { keys: ['k', '↑', '←'], what: 'Previous rider (arrows while the receipt is open)' },
  { keys: ['o', 'Enter'], what: 'Open the selected rider’s receipt' },
  { keys: ['a'], what: 'Approve (asks to confirm)' },
  { keys: ['r'], what: 'Reject (asks for a reason)' },
  { keys: ['1', '…', '5'], what: 'In the reject form: toggle a common reason' },
  { keys: ['Enter'], what: 'In a confirmation: confirm (Ctrl+Enter from the details box)' },
  { keys: ['+', '-'], what: 'Zoom the receipt in or out' },
  { keys: ['Shift', 'R'], what: 'Rotate the receipt a quarter turn' },
  { keys: ['0'], what: 'Reset zoom and rotation' },
  { keys: ['Esc'], what: 'Cancel a confirmation, then close the receipt' },
  { keys: ['?'], what: 'Show these shortcuts' },
];

export function ShortcutsOverlay({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="Keyboard shortcuts" className="max-w-lg">
      <p className="mb-3 text-sm text-ash">Shortcuts pause while you type in a field.</p>
      <dl className="divide-y divide-ink-700">
        {DESK_SHORTCUTS.map((s) => (
          <div key={s.what} className="flex items-center justify-between gap-4 py-2">
            <dt className="flex shrink-0 flex-wrap gap-1">
              {s.keys.map((k) =>
                k === '…' ? (
                  <span key={k} className="text-ash">
                    to
                  </span>
                ) : (
                  <kbd
                    key={k}
                    className="min-w-7 rounded border border-ink-600 bg-ink-850 px-1.5 py-0.5 text-center font-mono text-sm text-gold-300"
                  >
                    {k}
                  </kbd>
                ),
              )}
            </dt>
            <dd className="text-right text-sm text-bone">{s.what}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
