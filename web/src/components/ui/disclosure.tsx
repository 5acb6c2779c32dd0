import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

type DisclosureProps = {
  button: ReactNode;
  /** Said after the visible content, so the accessible name starts with what is seen. */
  label: string;
  className?: string;
  children: (close: () => void) => ReactNode;
};

/** The disclosure pattern, not a menu: Tab reaches every entry, and Escape or a click elsewhere closes it. */
export function Disclosure({ button, label, className = '', children }: DisclosureProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onFocus = (event: FocusEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('focusin', onFocus);
    };
  }, [open]);

  return (
    <div className={`disclosure ${className}`} ref={root}>
      <button
        ref={toggle}
        type="button"
        className="disclosure__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((shown) => !shown)}
      >
        {button}
        <span className="visually-hidden"> {label}</span>
      </button>
      <div className="disclosure__panel" id={panelId} hidden={!open}>
        {open && children(close)}
      </div>
    </div>
  );
}
