import { useState, type FormEvent } from 'react';
import type { Organization, Role } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { ROLE_NAMES } from '../../../api/roles';
import { useCommand } from '../../../api/use-command';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useGroupRolesQuery, useMapGroupRolesMutation, type GroupRoles } from '../api/directory-api';
import { directoryRefusal } from '../directory-words';

type Row = { key: number; group: string; role: Role };

const ROLE_OPTIONS = (['owner', 'admin', 'auditor', 'member'] as const).map((role) => ({
  value: role,
  label: ROLE_NAMES[role],
}));

let nextKey = 0;
const rowsOf = (roles: GroupRoles): Row[] =>
  Object.entries(roles).map(([group, role]) => ({ key: nextKey++, group, role }));

type Props = { organization: Organization; isOwner: boolean };

/** The whole mapping is saved at once; owners only (the server refuses admins, and this says so first). */
export function GroupRolesForm({ organization, isOwner }: Props) {
  const { data, error } = useGroupRolesQuery(organization.id);
  if (data === undefined) {
    return error === undefined ? (
      <p className="muted" role="status">
        Reading the mapping…
      </p>
    ) : (
      <FormAlert>{directoryRefusal(problemOf(error))}</FormAlert>
    );
  }
  return <MappingEditor organization={organization} isOwner={isOwner} saved={data} />;
}

/** Edits start from the mapping as read; a later read (another tab's save) does not overwrite what is being typed. */
function MappingEditor({ organization, isOwner, saved }: Props & { saved: GroupRoles }) {
  const [mapGroupRoles, saving] = useMapGroupRolesMutation();
  const [rows, setRows] = useState<Row[]>(() => rowsOf(saved));
  const { problem, done, run } = useCommand();

  const change = (key: number, changed: Partial<Row>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...changed } : row)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const roles = Object.fromEntries(
      rows.filter((row) => row.group.trim() !== '').map((row) => [row.group.trim(), row.role]),
    );
    await run(async () => {
      const kept = await mapGroupRoles({ organizationId: organization.id, roles }).unwrap();
      setRows(rowsOf(kept));
    }, 'Saved. Every provisioned member’s role now follows it.');
  }

  return (
    <form className="form" aria-label="Roles from groups" onSubmit={(event) => void submit(event)} noValidate>
      <FormAlert>{problem !== null && directoryRefusal(problem)}</FormAlert>
      {rows.length === 0 && (
        <p className="muted">
          No group is mapped: people your identity provider adds are members, whatever their groups.
        </p>
      )}
      {rows.length > 0 && (
        <ul className="rows directory-mapping" aria-label="Mapped groups">
          {rows.map((row, index) => (
            <li className="row directory-mapping__row" key={row.key}>
              <TextField
                label={`Group ${index + 1}`}
                value={row.group}
                disabled={!isOwner}
                maxLength={256}
                onChange={(event) => change(row.key, { group: event.target.value })}
              />
              <SelectField
                label={`Role for group ${index + 1}`}
                value={row.role}
                disabled={!isOwner}
                options={ROLE_OPTIONS}
                onChange={(event) => change(row.key, { role: event.target.value as Role })}
              />
              {isOwner && (
                <Button
                  type="button"
                  variant="quiet"
                  className="button--small"
                  aria-label={`Remove group ${index + 1}`}
                  onClick={() => setRows(rows.filter((other) => other.key !== row.key))}
                >
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {isOwner ? (
        <div className="form__actions">
          <Button
            type="button"
            variant="secondary"
            onClick={() => setRows([...rows, { key: nextKey++, group: '', role: 'member' }])}
          >
            Add a group
          </Button>
          <Button type="submit" busy={saving.isLoading}>
            Save the mapping
          </Button>
        </div>
      ) : (
        <p className="muted">Only owners change the mapping: it can make owners.</p>
      )}
      <p className="form__status" role="status">
        {done}
      </p>
    </form>
  );
}
