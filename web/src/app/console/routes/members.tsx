import { Members } from '../../../features/members/components/members';
import { useConsoleTitle, useOrganizationPage } from '../console-context';

export function MembersRoute() {
  const { organization, membership, session } = useOrganizationPage();
  useConsoleTitle('Members', organization.name);
  return <Members organization={organization} role={membership.role} currentUserId={session.user.id} />;
}
