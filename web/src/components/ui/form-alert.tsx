import type { ReactNode } from 'react';
import { Notice } from './notice';

type FormAlertProps = { id?: string; children: ReactNode };

/** Always in the page, so a new message is announced; it keeps its height, so a message moves nothing below it. */
export function FormAlert({ id, children }: FormAlertProps) {
  return (
    <div className="form-alert" role="alert" id={id}>
      {children ? <Notice tone="error">{children}</Notice> : null}
    </div>
  );
}
