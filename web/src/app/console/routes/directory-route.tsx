import { canManage } from '../../../api/roles';
import { PageHeader } from '../../../components/layout/page-header';
import { Directory } from '../../../features/directory/components/directory';
import { useConsoleTitle, useOrganizationPage } from '../console-context';

export function DirectoryRoute() {
  const { organization, membership } = useOrganizationPage();
  useConsoleTitle('Directory', organization.name);
  if (!canManage(membership.role)) {
    return (
      <PageHeader title="Directory">
        Owners and admins connect {organization.name}’s identity provider here; ask one of them.
      </PageHeader>
    );
  }
  return <Directory organization={organization} isOwner={membership.role === 'owner'} />;
}
