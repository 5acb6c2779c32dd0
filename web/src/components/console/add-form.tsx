import type { FormEvent, ReactNode } from 'react';
import type { LimitedResource, Organization, Problem, Role } from '../../api/contract';
import { FormAlert } from '../ui/form-alert';
import { LimitNotice } from './limit-notice';
import { Refusal } from './refusal';

type AddFormProps = {
  /** The form's name, e.g. "Add member". */
  label: string;
  organization: Organization;
  /** The role of the person looking: owners are shown the way to a higher limit, others whom to ask. */
  role: Role;
  /** What the form adds, for the limit said before anyone types. */
  resource: LimitedResource;
  /** The server's refusal of the last attempt, shown in words above the fields (their `aria-describedby` is `messageId`). */
  problem: Problem | null;
  messageId: string;
  busy: boolean;
  /** Said once the thing is added. */
  done: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The fields and the submit button. */
  children: ReactNode;
};

/** A form that adds a member, site or domain: the limit first or the refusal (never both), the fields, and what was done. */
export function AddForm({ label, organization, role, resource, problem, messageId, busy, done, onSubmit, children }: AddFormProps) {
  return (
    <div className="add-form">
      <LimitNotice organization={organization} resource={resource} role={role} refused={problem !== null} />
      <form className="form form--inline" noValidate onSubmit={onSubmit} aria-busy={busy} aria-label={label}>
        <FormAlert id={messageId}>{problem && <Refusal problem={problem} organization={organization} role={role} />}</FormAlert>
        {children}
        <p className="form__status" role="status">
          {done}
        </p>
      </form>
    </div>
  );
}
