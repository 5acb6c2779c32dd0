import { useEffect } from 'react';
import { Link, Navigate } from 'react-router';
import type { SessionAnswer } from '../../../api/contract';
import { ROLE_NAMES } from '../../../api/roles';
import { PageHeader } from '../../../components/layout/page-header';
import { selectProductName } from '../../../config/page-config-slice';
import { paths } from '../../../config/paths';
import { ConsoleLayout } from '../../../features/console-shell/components/console-layout';
import { leaveTo } from '../../../lib/navigation';
import { useAppDispatch, useAppSelector } from '../../../lib/store-hooks';
import { useConsoleTitle } from '../console-context';

export function OrganizationPicker({ session }: { session: SessionAnswer }) {
  const dispatch = useAppDispatch();
  const productName = useAppSelector(selectProductName);
  const { organizations } = session;
  useConsoleTitle('Your organizations', undefined);

  useEffect(() => {
    if (organizations.length === 0) dispatch(leaveTo(paths.login.noOrganizationHref));
  }, [organizations.length, dispatch]);

  const only = organizations.length === 1 ? organizations[0] : undefined;
  if (only !== undefined) return <Navigate to={paths.console.overview.getHref(only.id)} replace />;
  if (organizations.length === 0) return <div className="page-loading" role="status" aria-label="Loading" />;
  return (
    <ConsoleLayout productName={productName} user={session.user} organizations={organizations} current={undefined}>
      <PageHeader title="Your organizations">Choose the organization to work on.</PageHeader>
      <ul className="picker">
        {organizations.map((organization) => (
          <li key={organization.id}>
            <Link className="picker__item" to={paths.console.overview.getHref(organization.id)}>
              <span className="picker__name">{organization.name}</span>
              <span className={`tag tag--${organization.role}`}>{ROLE_NAMES[organization.role]}</span>
            </Link>
          </li>
        ))}
      </ul>
    </ConsoleLayout>
  );
}
