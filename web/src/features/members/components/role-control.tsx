import { useState } from 'react';
import type { Member, Role } from '../../../api/contract';
import { ROLES, ROLE_NAMES, canManageRole } from '../../../api/roles';

type RoleControlProps = {
  member: Member;
  viewerRole: Role;
  /** The only owner stays one (LAST_OWNER). */
  lastOwner: boolean;
  busy: boolean;
  onChange: (role: Role) => Promise<boolean>;
};

/** "Save role": nothing is sent while someone moves through the options with the keyboard. */
export function RoleControl({ member, viewerRole, lastOwner, busy, onChange }: RoleControlProps) {
  const [choice, setChoice] = useState<Role>(member.role);
  const tag = <span className={`tag tag--${member.role}`}>{ROLE_NAMES[member.role]}</span>;
  if (lastOwner || !canManageRole(viewerRole, member.role)) return tag;
  const roles = ROLES.filter((role) => canManageRole(viewerRole, role));
  return (
    <span className="role-control">
      <select
        className="role-control__select"
        aria-label={`Role of ${member.email}`}
        value={choice}
        onChange={(event) => setChoice(event.target.value as Role)}
      >
        {roles.map((role) => (
          <option key={role} value={role}>
            {ROLE_NAMES[role]}
          </option>
        ))}
      </select>
      {choice !== member.role && (
        <button
          type="button"
          className="link-button"
          disabled={busy}
          onClick={() => void onChange(choice).then((changed) => changed || setChoice(member.role))}
        >
          Save role<span className="visually-hidden"> of {member.email}</span>
        </button>
      )}
    </span>
  );
}
