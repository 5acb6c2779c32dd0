import { Overview } from '../../../features/overview/components/overview';
import { useConsoleTitle, useOrganizationPage } from '../console-context';

export function OverviewRoute() {
  const { organization, membership } = useOrganizationPage();
  useConsoleTitle('Overview', organization.name);
  return <Overview organization={organization} role={membership.role} />;
}
