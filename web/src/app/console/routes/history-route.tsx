import { canReadHistory } from '../../../api/roles';
import { PageHeader } from '../../../components/layout/page-header';
import { History } from '../../../features/history/components/history';
import { useConsoleTitle, useOrganizationPage } from '../console-context';

export function HistoryRoute() {
  const { organization, membership } = useOrganizationPage();
  useConsoleTitle('History', organization.name);
  if (!canReadHistory(membership.role)) {
    return (
      <PageHeader title="History">
        Owners, admins and auditors read the history of {organization.name}; members do not.
      </PageHeader>
    );
  }
  return <History organization={organization} />;
}
