import '../two-step.css';
import { useState } from 'react';
import { problemOf } from '../../../api/problem';
import { readRefusalMessage, refusalMessage } from '../../../api/refusals';
import { useCommand } from '../../../api/use-command';
import type { Organization, Role } from '../../../api/contract';
import { useMemberPages } from '../../../components/console/member-pages';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { FormAlert } from '../../../components/ui/form-alert';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import {
  useOrganizationTwoStepInfiniteQuery,
  useResetMemberSecondFactorsMutation,
  useSetTwoStepRequirementMutation,
  type OrganizationTwoStepPage,
  type OwnerResetOutcome,
  type TwoStepMember,
} from '../api/two-step-api';

const RESET_WORDS: Record<OwnerResetOutcome, (email: string) => string> = {
  reset: (email) => `The second factors of ${email} are removed, and they were told by e-mail.`,
  'confirmation-mailed': (email) => `${email} was e-mailed a link to agree: their second factors stay until they do.`,
  'nothing-to-reset': (email) => `${email} has no second factor any more: nothing to reset.`,
};

type OrganizationTwoStepProps = { organization: Organization; role: Role; currentUserId: string };

const rowId = (member: TwoStepMember) => `two-step-${member.userId}`;

export function OrganizationTwoStep({ organization, role, currentUserId }: OrganizationTwoStepProps) {
  const [setRequirement, setting] = useSetTwoStepRequirementMutation();
  const [reset, resetting] = useResetMemberSecondFactorsMutation();
  const [resettingFor, setResettingFor] = useState<{ userId: string; email: string } | null>(null);
  const { problem, done, run } = useCommand();
  // What the owner just chose shows at once, while the server records it; its answer then decides.
  const [choosing, setChoosing] = useState<boolean | null>(null);
  const owner = role === 'owner';
  const { shown, latest, field, state, footer } = useMemberPages<TwoStepMember, OrganizationTwoStepPage>({
    memberCount: organization.memberCount,
    label: 'Find a member’s two-step sign-in',
    rowId,
    moreContext: 'in two-step sign-in',
    useRead: (q) => useOrganizationTwoStepInfiniteQuery({ organizationId: organization.id, q }),
    refusal: (error) => readRefusalMessage(problemOf(error), organization),
  });
  if (latest === undefined) return state;
  const { withoutSecondFactor: without } = latest;
  const everyone = organization.memberCount;

  return (
    <div className="organization-two-step">
      <FormAlert>{problem && refusalMessage(problem)}</FormAlert>
      <CheckboxField
        label="Require two-step sign-in for every member"
        hint={
          owner
            ? 'Members then need a code or a passkey after their password, Google or single sign-on; those without one set it up at their next sign-in. Your single sign-on settings can trust your provider’s own two-step sign-in instead.'
            : 'Only an owner can change this.'
        }
        checked={choosing ?? latest.required}
        disabled={!owner || setting.isLoading}
        onChange={(event) => {
          const required = event.target.checked;
          setChoosing(required);
          const said = required ? 'Two-step sign-in is now required.' : 'Two-step sign-in is no longer required.';
          void run(() => setRequirement({ organizationId: organization.id, required }).unwrap(), said).finally(() =>
            setChoosing(null),
          );
        }}
      />
      <p>
        {without === 0
          ? 'Every member has a second factor.'
          : `${without.toLocaleString('en-US')} of ${everyone.toLocaleString('en-US')} ${everyone === 1 ? 'member has' : 'members have'} no second factor yet.`}
      </p>
      {field}
      {state}
      <ul className="rows" aria-label="Who has a second factor">
        {shown.map((member) => (
          <li className="row" key={member.userId} id={rowId(member)} tabIndex={-1}>
            <div className="row__main">
              <span className="row__title">{member.email}</span>
              <span className="row__tags">
                {member.secondFactor ? (
                  <span className="tag tag--verified">Set up</span>
                ) : (
                  <span className="tag tag--pending">Not set up</span>
                )}
              </span>
            </div>
            {/* Your own factors are yours to change, on the Account page. */}
            {owner && member.secondFactor && member.userId !== currentUserId && (
              <div className="row__actions">
                <button
                  type="button"
                  className="link-button link-button--danger"
                  onClick={() => setResettingFor(member)}
                >
                  Reset<span className="visually-hidden"> the two-step sign-in of {member.email}</span>
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {footer}
      <p className="form__status" role="status">
        {done}
      </p>
      {resettingFor !== null && (
        <ConfirmDialog
          title={`Reset the two-step sign-in of ${resettingFor.email}?`}
          confirm="Reset"
          busy={resetting.isLoading}
          onCancel={() => setResettingFor(null)}
          onConfirm={() => {
            const { userId, email } = resettingFor;
            const said = ({ outcome }: { outcome: OwnerResetOutcome }) => RESET_WORDS[outcome](email);
            void run(() => reset({ organizationId: organization.id, userId }).unwrap(), said).finally(() =>
              setResettingFor(null),
            );
          }}
        >
          Use this when they lost their phone or security key. If {organization.name} manages their account (your single
          sign-on made it, or its address is at one of your verified domains), their authenticator app, passkeys and
          recovery codes stop working at once. Anyone else is e-mailed a link to agree with their password, and nothing
          changes until they do. Either way they are told by e-mail.
        </ConfirmDialog>
      )}
    </div>
  );
}
