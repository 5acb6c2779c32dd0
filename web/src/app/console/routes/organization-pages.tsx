import { useEffect, useRef } from 'react';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import type { SessionAnswer } from '../../../api/contract';
import { useGetOrganizationQuery } from '../../../api/organization-api';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { PageHeader } from '../../../components/layout/page-header';
import { FormAlert } from '../../../components/ui/form-alert';
import { selectProductName } from '../../../config/page-config-slice';
import { paths } from '../../../config/paths';
import { ConsoleLayout } from '../../../features/console-shell/components/console-layout';
import { useAppSelector } from '../../../lib/store-hooks';
import { useConsoleTitle, type OrganizationPageContext } from '../console-context';

type OrganizationPagesProps = { session: SessionAnswer; onShown: (organizationId: string) => void };

export function OrganizationPages({ session, onShown }: OrganizationPagesProps) {
  const { orgId = '' } = useParams();
  const productName = useAppSelector(selectProductName);
  const membership = session.organizations.find((organization) => organization.id === orgId);
  const organization = useGetOrganizationQuery(orgId, { skip: membership === undefined });
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);
  const { refetch } = organization;

  // A change made elsewhere (a plan bought through the API) is read again when another page is opened.
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (membership !== undefined) void refetch();
  }, [pathname, membership, refetch]);

  useEffect(() => {
    if (membership !== undefined) onShown(membership.id);
  }, [membership, onShown]);

  const layout = { productName, user: session.user, organizations: session.organizations, current: membership };
  if (membership === undefined) {
    return (
      <ConsoleLayout {...layout} current={undefined} navigation={false}>
        <NoAccess />
      </ConsoleLayout>
    );
  }
  const context: OrganizationPageContext | undefined =
    organization.data === undefined ? undefined : { session, membership, organization: organization.data };
  return (
    <ConsoleLayout {...layout}>
      {context !== undefined ? (
        <Outlet context={context} />
      ) : organization.error !== undefined ? (
        <>
          <PageHeader title={membership.name} />
          <FormAlert>{refusalMessage(problemOf(organization.error))}</FormAlert>
        </>
      ) : (
        <div className="page-loading page-loading--inline" role="status" aria-label="Loading" />
      )}
    </ConsoleLayout>
  );
}

function NoAccess() {
  useConsoleTitle('No access', undefined);
  return (
    <>
      <PageHeader title="No access">You are not a member of this organization, or it does not exist.</PageHeader>
      <p>
        <Link to={paths.console.getHref()}>Go to your organizations</Link>
      </p>
    </>
  );
}
