// Loaded on demand after sign-in: its data layer comes with it.
import { setupListeners } from '@reduxjs/toolkit/query';
import { useEffect, useRef, useState } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import '../console-store';
import '../../console.css';
import { problemOf } from '../../api/problem';
import { useGetSessionQuery } from '../../api/session-api';
import { selectSessionEnded } from '../../api/session-ended';
import { paths } from '../../config/paths';
import { leaveTo } from '../../lib/navigation';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks';
import { ConsoleProblem } from './routes/console-problem';
import { AccountRoute } from './routes/account-route';
import { DomainsRoute } from './routes/domains-route';
import { HistoryRoute } from './routes/history-route';
import { MembersRoute } from './routes/members-route';
import { NotFoundRoute } from './routes/not-found-route';
import { OrganizationPages } from './routes/organization-pages';
import { OrganizationPicker } from './routes/organization-picker';
import { OverviewRoute } from './routes/overview-route';
import { SitesRoute } from './routes/sites-route';
import { SsoRoute } from './routes/sso-route';
import { WebhooksRoute } from './routes/webhooks-route';
import { DirectoryRoute } from './routes/directory-route';

export default function ConsoleApp() {
  const dispatch = useAppDispatch();
  const { pathname, search } = useLocation();
  const session = useGetSessionQuery();
  // The account page belongs to no organization; its header shows the one last looked at.
  const [lastOrganizationId, setLastOrganizationId] = useState<string | undefined>(undefined);
  const signedOut = useAppSelector(selectSessionEnded);
  const left = useRef(false);

  // Coming back to the tab or back online reads the organization again: a page is never stale for long.
  useEffect(() => setupListeners(dispatch), [dispatch]);

  useEffect(() => {
    // Once, however many reads were refused together.
    if (!signedOut || left.current) return;
    left.current = true;
    dispatch(leaveTo(paths.login.getHref(`${pathname}${search}`)));
  }, [signedOut, dispatch, pathname, search]);

  if (session.isLoading || signedOut) return <div className="page-loading" role="status" aria-label="Loading" />;
  if (session.data === undefined)
    return <ConsoleProblem problem={problemOf(session.error)} retry={() => void session.refetch()} />;

  const data = session.data;
  const lastSeen =
    data.organizations.find((organization) => organization.id === lastOrganizationId) ?? data.organizations[0];
  return (
    <Routes>
      <Route index element={<OrganizationPicker session={data} />} />
      <Route path="orgs/:orgId" element={<OrganizationPages session={data} onShown={setLastOrganizationId} />}>
        <Route index element={<OverviewRoute />} />
        <Route path="members" element={<MembersRoute />} />
        <Route path="sites" element={<SitesRoute />} />
        <Route path="domains" element={<DomainsRoute />} />
        <Route path="sso" element={<SsoRoute />} />
        <Route path="history" element={<HistoryRoute />} />
        <Route path="webhooks" element={<WebhooksRoute />} />
        <Route path="directory" element={<DirectoryRoute />} />
      </Route>
      <Route path={paths.console.account.path} element={<AccountRoute session={data} current={lastSeen} />} />
      <Route path="*" element={<NotFoundRoute session={data} current={lastSeen} />} />
    </Routes>
  );
}
