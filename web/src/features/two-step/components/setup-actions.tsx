import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';

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
