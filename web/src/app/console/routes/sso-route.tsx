import { Sso } from '../../../features/sso/components/sso';
import { useConsoleTitle, useOrganizationPage } from '../console-context';

export function SsoRoute() {
  const { organization, membership } = useOrganizationPage();
  useConsoleTitle('SSO', organization.name);
  return <Sso organization={organization} role={membership.role} />;
}
