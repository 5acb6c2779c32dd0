import type { Organization, Role } from '../../../api/contract';
import { refusalMessage } from '../../../api/refusals';
import { ROLE_NAMES, canManage, canManageRole } from '../../../api/roles';
import { useCommand } from '../../../api/use-command';
import { RemoveButton } from '../../../components/console/remove-button';
import { FormAlert } from '../../../components/ui/form-alert';
import { useChangeMemberRoleMutation, useRemoveMemberMutation, useUndeliveredInvitationsQuery, type UndeliveredInvitation } from '../api/members-api';
import { RoleControl } from './role-control';

type MemberListProps = { organization: Organization; role: Role; currentUserId: string };

const undeliveredWhy = (failure: UndeliveredInvitation): string =>
  failure.reason === 'address_refused'
    ? 'this is not an address mail can be sent to'
    : `their mail server refused it${failure.responseCode === undefined ? '' : ` (${failure.responseCode})`}`;

/** The members: e-mail, role, Chorus user, "Invited" until they have signed in once. */
export function MemberList({ organization, role, currentUserId }: MemberListProps) {
  const [removeMember] = useRemoveMemberMutation();
  const [changeMemberRole, changing] = useChangeMemberRoleMutation();
  const { problem, done, run } = useCommand();
  // Those who add members learn which addresses the mail could not reach (a typo, a closed mailbox).
  const undelivered = useUndeliveredInvitationsQuery(organization.id, { skip: !canManage(role) }).data?.failures ?? [];
  const owners = organization.members.filter((member) => member.role === 'owner').length;
  // The last owner cannot be removed (LAST_OWNER): the button is not offered, and the server would refuse anyway.
  const removable = (memberRole: Role) => canManageRole(role, memberRole) && !(memberRole === 'owner' && owners === 1);

  return (
    <>
      <FormAlert>{problem && refusalMessage(problem, organization)}</FormAlert>
      <p className="form__status" role="status">
        {done}
      </p>
      <ul className="rows" aria-label="Members">
        {organization.members.map((member) => (
          <li className="row" key={member.userId}>
            <div className="row__main">
              <span className="row__title">
                {member.email}
                {member.userId === currentUserId && <span className="muted"> (you)</span>}
              </span>
              <span className="row__tags">
                <RoleControl
                  key={member.role}
                  member={member}
                  viewerRole={role}
                  lastOwner={member.role === 'owner' && owners === 1}
                  busy={changing.isLoading}
                  onChange={(next) =>
                    run(
                      () => changeMemberRole({ organizationId: organization.id, userId: member.userId, role: next }).unwrap(),
                      `${member.email} is ${ROLE_NAMES[next].toLowerCase()} now.`,
                    )
                  }
                />
                {member.chorusUser && <span className="tag">Chorus user</span>}
                {member.invited && <span className="tag tag--invited">Invited</span>}
              </span>
              {undelivered
                .filter((failure) => failure.userId === member.userId)
                .map((failure) => (
                  <span className="row__problem" key={failure.at}>
                    We could not deliver the invitation to {failure.email}: {undeliveredWhy(failure)}. Remove them and add the right address.
                  </span>
                ))}
            </div>
            {removable(member.role) && (
              <div className="row__actions">
                <RemoveButton
                  item={member.email}
                  consequence={
                    member.userId === currentUserId
                      ? `You lose access to ${organization.name} at once.`
                      : `${member.email} loses access to ${organization.name} at once. You can add them again later.`
                  }
                  remove={() => run(() => removeMember({ organizationId: organization.id, userId: member.userId }).unwrap())}
                />
              </div>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
