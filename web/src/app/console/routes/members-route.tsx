import { canManage } from '../../../api/roles';
import { Section } from '../../../components/layout/section';
import { Members } from '../../../features/members/components/members';
import { OrganizationTwoStep } from '../../../features/two-step/components/organization-two-step';
import { useConsoleTitle, useOrganizationPage } from '../console-context';

export function MembersRoute() {
  const { organization, membership, session } = useOrganizationPage();
  useConsoleTitle('Members', organization.name);
  const twoStep = canManage(membership.role) ? (
    <Section
      title="Two-step sign-in"
      description="A code or a passkey after signing in, with a password, Google or single sign-on."
    >
      <OrganizationTwoStep organization={organization} role={membership.role} currentUserId={session.user.id} />
    </Section>
  ) : undefined;
  return (
    <Members organization={organization} role={membership.role} currentUserId={session.user.id} twoStep={twoStep} />
  );
}
