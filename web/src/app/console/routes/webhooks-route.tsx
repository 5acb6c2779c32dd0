import { canManage } from '../../../api/roles';
import { PageHeader } from '../../../components/layout/page-header';
import { Webhooks } from '../../../features/webhooks/components/webhooks';
import { useConsoleTitle, useOrganizationPage } from '../console-context';

export function WebhooksRoute() {
  const { organization, membership } = useOrganizationPage();
  useConsoleTitle('Webhooks', organization.name);
  if (!canManage(membership.role)) {
    return (
      <PageHeader title="Webhooks">
        Owners and admins send {organization.name}’s history to their own systems here; ask one of them.
      </PageHeader>
    );
  }
  return <Webhooks organization={organization} />;
}
