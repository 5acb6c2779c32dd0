import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';

/** A setup step's buttons: its own action, and "Cancel" where there is somewhere to go back to. */
export function SetupActions({ children, onCancel }: { children: ReactNode; onCancel: (() => void) | undefined }) {
  return (
    <div className="form__actions">
      {children}
      {onCancel && (
        <Button type="button" variant="quiet" onClick={onCancel}>
          Cancel
        </Button>
      )}
    </div>
  );
}
