import type { FormEvent, ReactNode } from 'react';
import type { LimitedResource, Organization, Problem, Role } from '../../api/contract';
import { FormAlert } from '../ui/form-alert';
import { LimitNotice } from './limit-notice';
import { Refusal } from './refusal';

type AddFormProps = {
  label: string;
  organization: Organization;
  /** Owners are shown the way to a higher limit, others whom to ask. */
  role: Role;
  resource: LimitedResource;
  /** The fields' `aria-describedby` is `messageId`. */
  problem: Problem | null;
  messageId: string;
  busy: boolean;
  done: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
};

/** The limit or the refusal, never both. */
export function AddForm({
  label,
  organization,
  role,
  resource,
  problem,
  messageId,
  busy,
  done,
  onSubmit,
  children,
}: AddFormProps) {
  return (
    <div className="add-form">
      <LimitNotice organization={organization} resource={resource} role={role} refused={problem !== null} />
      <form className="form form--inline" noValidate onSubmit={onSubmit} aria-busy={busy} aria-label={label}>
        <FormAlert id={messageId}>
          {problem && <Refusal problem={problem} organization={organization} role={role} />}
        </FormAlert>
        {children}
        <p className="form__status" role="status">
          {done}
        </p>
      </form>
    </div>
  );
}
