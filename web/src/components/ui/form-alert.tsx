import type { ReactNode } from 'react';
import { Notice } from './notice';

type FormAlertProps = { id?: string; children: ReactNode };

/**
 * The place a form's error appears. The live region is always in the page, so a new message is
 * announced, and it keeps its height while empty, so a message moves nothing below it.
 */
export function FormAlert({ id, children }: FormAlertProps) {
  return (
    <div className="form-alert" role="alert" id={id}>
      {children ? <Notice tone="error">{children}</Notice> : null}
    </div>
  );
}
