import { Link } from 'react-router';
import type { Membership, SessionAnswer } from '../../../api/contract';
import { PageHeader } from '../../../components/layout/page-header';
import { selectProductName } from '../../../config/page-config-slice';
import { paths } from '../../../config/paths';
import { ConsoleLayout } from '../../../features/console-shell/components/console-layout';
import { useAppSelector } from '../../../lib/store-hooks';
import { useConsoleTitle } from '../console-context';

export function NotFoundRoute({ session, current }: { session: SessionAnswer; current: Membership | undefined }) {
  useConsoleTitle('Page not found', current?.name);
  return (
    <ConsoleLayout
      productName={useAppSelector(selectProductName)}
      user={session.user}
      organizations={session.organizations}
      current={current}
    >
      <PageHeader title="Page not found">There is no such page in the console.</PageHeader>
      <p>
        <Link to={paths.console.getHref()}>Go to your organization</Link>
      </p>
    </ConsoleLayout>
  );
}
