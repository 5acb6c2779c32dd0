import { useState, type FormEvent } from 'react';
import type { Organization, Role } from '../../../api/contract';
import { ROLE_NAMES, canManageRole } from '../../../api/roles';
import { fieldRefusal, useCommand } from '../../../api/use-command';
import { AddForm } from '../../../components/console/add-form';
import { Button } from '../../../components/ui/button';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useAddMemberMutation } from '../api/members-api';
import { isEmailAddress } from '@libs/domain/email/email-address';

const ROLE_ORDER: Role[] = ['member', 'admin', 'auditor', 'owner'];
const ROLE_HINTS: Record<Role, string> = {
  member: 'reads the organization',
  admin: 'manages members, sites and domains',
  auditor: 'reads the organization and its history',
  owner: 'manages everything, owners too',
};

const MESSAGE_ID = 'add-member-message';

export function AddMemberForm({ organization, role }: { organization: Organization; role: Role }) {
  const [addMember, { isLoading }] = useAddMemberMutation();
  const [email, setEmail] = useState('');
  const [newRole, setNewRole] = useState<Role>('member');
  const [chorusUser, setChorusUser] = useState(false);
  const { problem, done, run, refuse } = useCommand();
  // Only while Chorus runs in parallel with Classic does being a Chorus user change anything (seed section 6).
  const chorusUsersApply = organization.chorus && organization.chorusDetails.parallelUse === true;
  const roles = ROLE_ORDER.filter((candidate) => canManageRole(role, candidate));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    // The server's own rule, so what the form accepts the server accepts.
    if (!isEmailAddress(address)) return refuse(fieldRefusal('email'));
    const added = await run(
      () =>
        addMember({
          organizationId: organization.id,
          email: address,
          role: newRole,
          chorusUser: chorusUsersApply && chorusUser,
        }).unwrap(),
      `${address} is a member now, as ${ROLE_NAMES[newRole].toLowerCase()}. We are e-mailing them to let them know.`,
    );
    if (!added) return;
    setEmail('');
    setNewRole('member');
    setChorusUser(false);
  }

  return (
    <AddForm
      label="Add member"
      organization={organization}
      role={role}
      resource="users"
      problem={problem}
      messageId={MESSAGE_ID}
      busy={isLoading}
      done={done}
      onSubmit={(event) => void submit(event)}
    >
      <div className="form__row">
        <TextField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="name@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={
            (problem !== null && (problem.code === 'DUPLICATE' || problem.code === 'VALIDATION_FAILED')) || undefined
          }
          aria-describedby={problem ? MESSAGE_ID : undefined}
        />
        <SelectField
          label="Role"
          name="role"
          value={newRole}
          onChange={(event) => setNewRole(event.target.value as Role)}
          options={roles.map((candidate) => ({
            value: candidate,
            label: `${ROLE_NAMES[candidate]}: ${ROLE_HINTS[candidate]}`,
          }))}
        />
      </div>
      {chorusUsersApply && (
        <CheckboxField
          label="Chorus user"
          hint="Chorus runs alongside Classic here, so it notifies only its users."
          name="chorusUser"
          checked={chorusUser}
          onChange={(event) => setChorusUser(event.target.checked)}
        />
      )}
      {role !== 'owner' && <p className="form__note">Only an owner can add an owner.</p>}
      <div className="form__actions">
        <Button type="submit" busy={isLoading}>
          Add member
        </Button>
      </div>
    </AddForm>
  );
}
