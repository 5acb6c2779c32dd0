import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button';

type ConfirmDialogProps = {
  title: string;
  children: ReactNode;
  confirm: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** A modal <dialog>: the browser keeps the focus inside and gives it back on close. Cancel has the first focus. */
export function ConfirmDialog({ title, children, confirm, busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof element.showModal === 'function' && !element.open) element.showModal();
    else element.setAttribute('open', '');
    return () => {
      if (element.open && typeof element.close === 'function') element.close();
      returnTo?.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 className="dialog__title" id={titleId}>
        {title}
      </h2>
      <div className="dialog__body" id={bodyId}>
        {children}
      </div>
      <div className="dialog__actions">
        <Button type="button" variant="secondary" onClick={onCancel} autoFocus>
          Cancel
        </Button>
        <Button type="button" variant="danger" busy={busy} onClick={onConfirm}>
          {confirm}
        </Button>
      </div>
    </dialog>
  );
}
