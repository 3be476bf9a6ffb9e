import { type ReactNode, useEffect } from 'react';
import { Button, Card } from './ui';

/** Overlay dialog: Escape or an overlay click cancels; the confirm button confirms. */
export function Modal({
  open,
  title,
  children,
  confirmLabel = 'Готово',
  cancelLabel,
  color = 'info',
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  color?: 'info' | 'danger' | 'success';
  onConfirm: () => void;
  onCancel: () => void;
}) {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onCancel();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onCancel]);
  if (!open) return null;
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center p-4"
      role="dialog"
      aria-modal="true"
      aria-label={title}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the overlay click cancels; Escape is the keyboard way */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Escape is handled on the window */}
      <div
        data-testid="modal-overlay"
        className="absolute inset-0 animate-[fadeIn_150ms] bg-gradient-to-tr from-gray-700 via-gray-900 to-gray-700 opacity-90 dark:from-gray-700 dark:via-gray-900 dark:to-gray-700"
        onClick={onCancel}
      />
      <Card className="relative z-10 w-full max-w-lg shadow-lg" title={title}>
        <div className="mb-6">{children}</div>
        <div className="flex gap-2">
          <Button color={color} onClick={onConfirm}>
            {confirmLabel}
          </Button>
          {cancelLabel && (
            <Button color="outline" onClick={onCancel}>
              {cancelLabel}
            </Button>
          )}
        </div>
      </Card>
    </div>
  );
}
