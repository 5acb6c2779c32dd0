import { Domains } from '../../../features/domains/components/domains';
import { useConsoleTitle, useOrganizationPage } from '../console-context';

export function DomainsRoute() {
  const { organization, membership } = useOrganizationPage();
  useConsoleTitle('Domains', organization.name);
  return <Domains organization={organization} role={membership.role} />;
}
