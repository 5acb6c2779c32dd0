import { Sites } from '../../../features/sites/components/sites';
import { useConsoleTitle, useOrganizationPage } from '../console-context';

export function SitesRoute() {
  const { organization, membership } = useOrganizationPage();
  useConsoleTitle('Sites', organization.name);
  return <Sites organization={organization} role={membership.role} />;
}
