import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../ui/confirm-dialog';

type RemoveButtonProps = {
  /** As people call it: "Shop (shop.example.com)". */
  item: string;
  consequence: ReactNode;
  /** A refusal is the caller's to show: the dialog closes either way. */
  remove: () => Promise<unknown>;
};

export function RemoveButton({ item, consequence, remove }: RemoveButtonProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await remove();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }

  return (
    <>
      <button type="button" className="link-button link-button--danger" onClick={() => setAsking(true)}>
        Remove<span className="visually-hidden"> {item}</span>
      </button>
      {asking && (
        <ConfirmDialog
          title={`Remove ${item}?`}
          confirm="Remove"
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={() => setAsking(false)}
        >
          {consequence}
        </ConfirmDialog>
      )}
    </>
  );
}
