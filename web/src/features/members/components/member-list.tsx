import { useEffect, useRef } from 'react';
import type { Member, Organization, Role } from '../../../api/contract';
import { ROLE_NAMES, canManage, canManageRole } from '../../../api/roles';
import { useCommand } from '../../../api/use-command';
import { Refusal } from '../../../components/console/refusal';
import { useMemberPages } from '../../../components/console/member-pages';
import { RemoveButton } from '../../../components/console/remove-button';
import { FormAlert } from '../../../components/ui/form-alert';
import {
  useMembersInfiniteQuery,
  useChangeMemberRoleMutation,
  useRemoveMemberMutation,
  useResendInvitationMutation,
  useUndeliveredInvitationsQuery,
  type UndeliveredInvitation,
} from '../api/members-api';
import { RoleControl } from './role-control';

type MemberListProps = { organization: Organization; role: Role; currentUserId: string };

const undeliveredWhy = (failure: UndeliveredInvitation): string =>
  failure.reason === 'address_refused'
    ? 'this is not an address mail can be sent to'
    : `their mail server refused it${failure.responseCode === undefined ? '' : ` (${failure.responseCode})`}`;

const rowId = (userId: string) => `member-${userId}`;
const memberRowId = (member: Member) => rowId(member.userId);

export function MemberList({ organization, role, currentUserId }: MemberListProps) {
  const [removeMember] = useRemoveMemberMutation();
  const [resendInvitation, resending] = useResendInvitationMutation();
  const [changeMemberRole, changing] = useChangeMemberRoleMutation();
  const { problem, done, run } = useCommand();
  // Those who add members learn which addresses the mail could not reach (a typo, a closed mailbox).
  const undelivered = useUndeliveredInvitationsQuery(organization.id, { skip: !canManage(role) }).data?.failures ?? [];
  const list = useRef<HTMLUListElement>(null);
  // Their Remove button goes with them: the focus needs somewhere to go.
  const removed = useRef<{ userId: string; next: string | null } | null>(null);
  const owners = organization.owners.length;
  // The server would refuse LAST_OWNER anyway.
  const removable = (memberRole: Role) => canManageRole(role, memberRole) && !(memberRole === 'owner' && owners === 1);
  const { shown, read, field, state, footer } = useMemberPages<Member>({
    memberCount: organization.memberCount,
    label: 'Find a member',
    rowId: memberRowId,
    useRead: (q) => useMembersInfiniteQuery({ organizationId: organization.id, q }),
  });

  useEffect(() => {
    const gone = removed.current;
    if (gone === null || shown.some((member) => member.userId === gone.userId)) return;
    removed.current = null;
    (gone.next === null ? list.current : document.getElementById(rowId(gone.next)))?.focus();
  }, [shown]);

  async function remove(userId: string, email: string) {
    const index = shown.findIndex((member) => member.userId === userId);
    const next = shown[index + 1] ?? shown[index - 1];
    const sentence =
      userId === currentUserId
        ? `You are no longer a member of ${organization.name}.`
        : `${email} is removed from ${organization.name}.`;
    removed.current = { userId, next: next?.userId ?? null };
    if (!(await run(() => removeMember({ organizationId: organization.id, userId }).unwrap(), sentence)))
      removed.current = null;
  }

  return (
    <>
      <FormAlert>{problem && <Refusal problem={problem} organization={organization} role={role} />}</FormAlert>
      <p className="form__status" role="status">
        {done}
      </p>
      {field}
      {state}
      {read && (
        <ul className="rows" aria-label="Members" ref={list} tabIndex={-1}>
          {shown.map((member) => (
            <li className="row" key={member.userId} id={rowId(member.userId)} tabIndex={-1}>
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
                        () =>
                          changeMemberRole({
                            organizationId: organization.id,
                            userId: member.userId,
                            role: next,
                          }).unwrap(),
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
                      We could not deliver the invitation to {failure.email}: {undeliveredWhy(failure)}. Remove them and
                      add the right address.
                    </span>
                  ))}
              </div>
              {(removable(member.role) || (member.invited && canManageRole(role, member.role))) && (
                <div className="row__actions">
                  {member.invited && canManageRole(role, member.role) && (
                    <button
                      type="button"
                      className="link-button"
                      disabled={resending.isLoading}
                      onClick={() =>
                        void run(
                          () => resendInvitation({ organizationId: organization.id, userId: member.userId }).unwrap(),
                          `A new invitation is on its way to ${member.email}.`,
                        )
                      }
                    >
                      Resend invitation<span className="visually-hidden"> to {member.email}</span>
                    </button>
                  )}
                  {removable(member.role) && (
                    <RemoveButton
                      item={member.email}
                      consequence={
                        member.userId === currentUserId
                          ? `You lose access to ${organization.name} at once.`
                          : `${member.email} loses access to ${organization.name} at once. You can add them again later.`
                      }
                      remove={() => remove(member.userId, member.email)}
                    />
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {footer}
    </>
  );
}
