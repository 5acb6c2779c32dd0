// The audit explorer from the auditor's side: the timeline in the server's words, filters and pages
// asked of the server, an event's changes and the state after it, "As of", a correlation, the chart's
// table, the downloads, and the page a plain member gets.
import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { useLocation, useNavigate, type NavigateFunction } from 'react-router';
import { AppRoutes } from '../../app/router';
import { adaSession, anOrganization, consoleServer, member } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';
import type {
  ChangesAnswer,
  CorrelationAnswer,
  HistoryProof,
  TimelineEntry,
  UsageSeries,
} from './api/history-contract';

const entry = (
  revision: number,
  type: string,
  description: string,
  actorName: string,
  correlationId: string | null = `c${revision}`,
): TimelineEntry => ({
  recordedAt: `2020-03-12T09:0${revision}:00.000Z`,
  revision,
  position: revision * 10,
  type,
  description,
  actor: actorName === 'Billing' ? 'billing' : 'cli',
  actorName,
  correlationId,
});

const entries = [
  entry(3, 'AddOnPurchased', 'Add-on purchased: Additional site', 'Billing', 'evt_1'),
  entry(2, 'MemberAdded', 'Member added: bob@acme.example as admin', 'ada@acme.example'),
  entry(1, 'PlanAssigned', 'Plan assigned: Chorus teams', 'Command line'),
  entry(0, 'OrganizationCreated', 'Organization created: Acme', 'Command line'),
];

const acme = anOrganization({ revision: 3 });
const stateWith = (emails: string[], memberCount = emails.length) => ({
  ...acme,
  members: emails.map((email) => member(email, 'admin')),
  memberCount,
  recordedAt: '2020-03-12T09:02:00.000Z',
});

const changes: ChangesAnswer = {
  entry: entries[1] as TimelineEntry,
  state: stateWith(['ada@acme.example', 'bob@acme.example']),
  changes: [
    { area: 'usage', kind: 'changed', subject: 'Users in use', before: '1', after: '2', text: 'Users in use: 1 → 2' },
    {
      area: 'members',
      kind: 'added',
      subject: 'Member',
      after: 'bob@acme.example as admin',
      text: 'Member: bob@acme.example as admin',
    },
  ],
};

const correlation: CorrelationAnswer = {
  organizationId: 'acme',
  correlationId: 'evt_1',
  hasMore: false,
  entries: [
    {
      ...entry(
        0,
        'BillingEventReceived',
        'Billing event received: add-on purchased, product prod_acs × 1 (evt_1)',
        'Billing',
        'evt_1',
      ),
      streamId: 'billing-evt_1',
    },
    { ...(entries[0] as TimelineEntry), streamId: 'organization-acme' },
  ],
};

const usage: UsageSeries = {
  organizationId: 'acme',
  merged: false,
  points: [
    {
      at: '2020-03-12T09:00:00.000Z',
      revision: 0,
      plan: false,
      users: { usage: 0, limit: null, peak: 0 },
      contentSections: { usage: 0, limit: null, peak: 0 },
    },
    {
      at: '2020-03-12T09:02:00.000Z',
      revision: 2,
      plan: true,
      users: { usage: 2, limit: 5, peak: 2 },
      contentSections: { usage: 0, limit: 2, peak: 0 },
    },
  ],
};

/** Where the in-memory router is, and its Back (the browser's own buttons, in a test). */
const router: { search: string; navigate?: NavigateFunction } = { search: '' };
function RouterProbe() {
  const { search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    Object.assign(router, { search, navigate });
  }, [search, navigate]);
  return null;
}

const signed: HistoryProof = {
  chained: true,
  checkpoint: { position: '42', time: '2020-03-12T10:00:00.000Z', key: 'ab'.repeat(32), reason: 'hour' },
  organizationCovered: true,
  failure: null,
};

function explorer(
  route = '/app/orgs/acme/history',
  refuse: (path: string) => boolean = () => false,
  proof: HistoryProof = signed,
) {
  const reads = consoleServer({ session: adaSession(), organizations: [acme] });
  const network = createFakeNetwork({
    server: (request) => {
      const [path, query = ''] = request.url.split('?');
      const parameters = new URLSearchParams(query);
      if (refuse(path ?? ''))
        return { status: 401, body: { status: 401, code: 'UNAUTHENTICATED', detail: 'Sign in first.' } };
      if (path === '/organizations/acme/history/events') {
        const type = parameters.get('type');
        const shown = type === null ? entries : entries.filter((candidate) => candidate.type === type);
        const after = parameters.get('after');
        const page =
          after === null ? shown.slice(0, 2) : shown.filter((candidate) => Number(candidate.revision) < Number(after));
        return {
          status: 200,
          body: {
            organizationId: 'acme',
            order: 'newest',
            entries: page,
            next: after === null && shown.length > 2 ? page.at(-1)?.revision : null,
          },
        };
      }
      if (path === '/organizations/acme/history/filters') {
        return {
          status: 200,
          body: {
            types: [{ type: 'MemberAdded', name: 'Member added' }],
            actors: [{ actor: 'billing', name: 'Billing' }],
          },
        };
      }
      if (path === '/organizations/acme/history/changes' && parameters.get('memberLimit') !== '50')
        return { status: 400, body: { code: 'VALIDATION_FAILED' } };
      if (path === '/organizations/acme/history/changes' && parameters.get('asOfRevision') === '2')
        return { status: 200, body: changes };
      if (path === '/organizations/acme/history/changes' && parameters.has('asOf')) {
        return {
          status: 200,
          // The console lists the first members then and counts the rest.
          body: { ...changes, entry: entries[2], state: stateWith(['ada@acme.example'], 120_000), changes: [] },
        };
      }
      if (path === '/organizations/acme/correlations/evt_1') return { status: 200, body: correlation };
      if (path === '/organizations/acme/history/usage') return { status: 200, body: usage };
      if (path === '/organizations/acme/history/proof') return { status: 200, body: proof };
      return reads(request);
    },
  });
  return renderWithProviders(
    <>
      <AppRoutes />
      <RouterProbe />
    </>,
    { route, network },
  );
}

describe('the history page', () => {
  it("lists the newest events in the server's words, with actor, revision and correlation, and pages on", async () => {
    const { network } = explorer();
    const list = await screen.findByRole('list', { name: 'Events, newest first' });
    await within(list).findByText('Add-on purchased: Additional site');

    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.history-entry__title')?.textContent),
    ).toEqual(['Add-on purchased: Additional site', 'Member added: bob@acme.example as admin']);
    expect(within(list).getAllByRole('listitem')[0]?.textContent).toContain('Billing · revision 3');
    expect(within(list).getAllByRole('listitem')[0]?.querySelector('time')?.getAttribute('title')).toBe(
      '2020-03-12 09:03:00.000 UTC',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Older events' }));
    await screen.findByText('Plan assigned: Chorus teams');
    expect(network.requests.map((request) => request.url)).toContain(
      '/organizations/acme/history/events?limit=25&after=2',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Newer events' }));
    await screen.findByText('Add-on purchased: Additional site');
  });

  it('asks the server for the filtered events', async () => {
    const { network } = explorer();
    await screen.findByText('Add-on purchased: Additional site');
    await screen.findByRole('option', { name: 'Member added' });

    await userEvent.selectOptions(screen.getByLabelText('Event type'), 'Member added');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2020-03-12T10:00:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));

    await waitFor(() => expect(screen.queryByText('Add-on purchased: Additional site')).toBeNull());
    const list = await screen.findByRole('list', { name: 'Events, newest first' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.history-entry__title')?.textContent),
    ).toEqual(['Member added: bob@acme.example as admin']);
    const filtered = network.requests
      .map((request) => new URL(request.url, 'http://x'))
      .find((url) => url.searchParams.get('type') === 'MemberAdded');
    expect(filtered?.searchParams.get('from')).toBe(new Date('2020-03-12T10:00:00').toISOString());
  });

  it('keeps the filters in the address: applied ones go into the query string, and the exports carry them', async () => {
    explorer();
    await screen.findByRole('option', { name: 'Member added' });

    await userEvent.selectOptions(screen.getByLabelText('Event type'), 'Member added');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2020-03-12T10:00:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));

    const from = new Date('2020-03-12T10:00:00').toISOString();
    await waitFor(() => expect(new URLSearchParams(router.search).get('type')).toBe('MemberAdded'));
    expect(new URLSearchParams(router.search).get('from')).toBe(from);
    const exported = new URL(
      screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href') as string,
      'http://x',
    );
    expect(Object.fromEntries(exported.searchParams)).toEqual({ format: 'csv', type: 'MemberAdded', from });
    expect(screen.getByRole('group', { name: 'Download the events these filters select' })).toBeTruthy();
  });

  it('a page opened with filters in its address (a reload, a shared link) shows and asks for them; Back and Forward step through them', async () => {
    const { network } = explorer('/app/orgs/acme/history?type=MemberAdded&actor=billing');
    const list = await screen.findByRole('list', { name: 'Events, newest first' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    await screen.findByRole('option', { name: 'Member added' });

    expect((screen.getByLabelText('Event type') as HTMLSelectElement).value).toBe('MemberAdded');
    expect((screen.getByLabelText('Actor') as HTMLSelectElement).value).toBe('billing');
    const asked = new URL(
      network.requests.find((request) => request.url.startsWith('/organizations/acme/history/events'))?.url as string,
      'http://x',
    );
    expect(asked.searchParams.get('type')).toBe('MemberAdded');
    expect(asked.searchParams.get('actor')).toBe('billing');

    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(router.search).toBe(''));
    await screen.findByText('Add-on purchased: Additional site');
    expect((screen.getByLabelText('Event type') as HTMLSelectElement).value).toBe('');

    act(() => void router.navigate?.(-1));
    await waitFor(() => expect((screen.getByLabelText('Event type') as HTMLSelectElement).value).toBe('MemberAdded'));
    await waitFor(() => expect(screen.queryByText('Add-on purchased: Additional site')).toBeNull());
    act(() => void router.navigate?.(1));
    await screen.findByText('Add-on purchased: Additional site');
  });

  it('refuses an "As of" in the future in the form, without asking the server', async () => {
    const { network } = explorer();
    await screen.findByText('Add-on purchased: Additional site');

    fireEvent.change(screen.getByLabelText('As of'), { target: { value: '2999-01-01T00:00:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Show state' }));

    expect(
      await screen.findByText('Choose a moment in the past: the history does not know the future yet.'),
    ).toBeTruthy();
    expect(network.requests.some((request) => request.url.includes('asOf='))).toBe(false);
  });

  it('a session that ended elsewhere: the first 401 clears the page and goes to the login once, to come back to this page', async () => {
    let ended = false;
    const view = explorer('/app/orgs/acme/history?type=MemberAdded', (path) => ended && path !== '/session');
    await screen.findByRole('list', { name: 'Events, newest first' });

    ended = true;
    // Coming back to the tab reads everything again (refetchOnFocus): three reads answer 401 at once.
    act(() => {
      window.dispatchEvent(new Event('focus'));
      document.dispatchEvent(new Event('visibilitychange'));
    });

    await waitFor(() =>
      expect(view.navigate).toHaveBeenCalledWith(
        `/login?redirect=${encodeURIComponent('/app/orgs/acme/history?type=MemberAdded')}`,
      ),
    );
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Events, newest first' })).toBeNull());
    expect(screen.queryByText('Member added: bob@acme.example as admin')).toBeNull();
    expect(screen.queryByRole('alert', { name: /Sign in/ })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(view.navigate).toHaveBeenCalledTimes(1);
  });

  it('shows what a selected event changed and the state after it; "As of" shows the state then', async () => {
    explorer();
    await userEvent.click(await screen.findByRole('button', { name: 'Member added: bob@acme.example as admin' }));

    const changed = await screen.findByRole('list', { name: 'What changed' });
    expect(
      within(changed)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['ChangedUsers in use: 1 → 2', 'AddedMember: bob@acme.example as admin']);
    expect(within(screen.getByRole('list', { name: 'Members then' })).getByText('bob@acme.example')).toBeTruthy();
    expect(
      screen.getByRole('button', { name: 'Member added: bob@acme.example as admin' }).getAttribute('aria-pressed'),
    ).toBe('true');

    fireEvent.change(screen.getByLabelText('As of'), { target: { value: '2020-03-12T09:01:30' } });
    await userEvent.click(screen.getByRole('button', { name: 'Show state' }));
    await screen.findByText(/The last event by then: revision 1/);
    expect(within(screen.getByRole('list', { name: 'Members then' })).queryByText('bob@acme.example')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Members (120,000)' })).toBeTruthy();
    expect(screen.getByText('The first 1 of 120,000 members are listed.')).toBeTruthy();
  });

  it("opens a correlation: the billing ledger's events and the organization's", async () => {
    explorer();
    await userEvent.click(await screen.findByRole('button', { name: 'Correlation evt_1' }));

    const list = await screen.findByRole('list', { name: 'Events of correlation evt_1' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringContaining('Billing event received: add-on purchased, product prod_acs × 1 (evt_1)'),
      expect.stringContaining('Add-on purchased: Additional site'),
    ]);
    expect(list.textContent).toContain('billing ledger, revision 0');
  });

  it("offers both downloads and the chart's figures as a table", async () => {
    explorer();
    expect((await screen.findByRole('link', { name: 'Download JSON lines' })).getAttribute('href')).toBe(
      '/organizations/acme/history/export?format=jsonl',
    );
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      '/organizations/acme/history/export?format=csv',
    );
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) =>
          within(row)
            .queryAllByRole('cell')
            .slice(1)
            .map((cell) => cell.textContent),
        ),
    ).toEqual([[], ['0', '0 in use, no plan', '0 in use, no plan'], ['2', '2 of 5', '0 of 2']]);
    expect(screen.getAllByRole('img', { name: /in use against the limit over time/ })).toHaveLength(2);
  });

  it('says how far the record is verified and signed, and offers the whole history with its proof', async () => {
    explorer();
    expect(await screen.findByText(/Verified and signed on .*, up to position 42 of the record/)).toBeTruthy();
    expect(screen.getByText(/That covers every change below/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download with proof' }).getAttribute('href')).toBe(
      '/organizations/acme/history/export?format=jsonl&proof=true',
    );
    expect(screen.getByRole('link', { name: 'public key' }).getAttribute('href')).toBe('/history/public-key');
  });

  it('says when the latest changes are not signed yet, or when none is, and offers no proof of a store without a chain', async () => {
    const first = explorer('/app/orgs/acme/history', () => false, { ...signed, organizationCovered: false });
    expect(
      await screen.findByText(/The latest changes came after it: the download with its proof signs them/),
    ).toBeTruthy();
    first.unmount();
    const none = explorer('/app/orgs/acme/history', () => false, {
      ...signed,
      checkpoint: null,
      organizationCovered: false,
    });
    expect(await screen.findByText(/No checkpoint is signed yet/)).toBeTruthy();
    none.unmount();
    explorer('/app/orgs/acme/history', () => false, { ...signed, chained: false, checkpoint: null });
    expect(await screen.findByText(/does not chain its events/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download with proof' })).toBeNull();
  });

  it('says where the record fails verification', async () => {
    explorer('/app/orgs/acme/history', () => false, {
      ...signed,
      failure: { position: '17', reason: 'its hash does not match', at: '2020-03-12T10:05:00.000Z' },
    });
    expect(await screen.findByText(/The record fails verification at position 17:/)).toBeTruthy();
  });

  it('offers no proof of filtered events: a proof covers the whole history', async () => {
    explorer('/app/orgs/acme/history?type=MemberAdded');
    expect(await screen.findByText(/Only the events these filters select/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download with proof' })).toBeNull();
  });

  it('tells a plain member that the history is not theirs to read', async () => {
    const session = adaSession();
    const reads = consoleServer({
      session: {
        ...session,
        organizations: session.organizations.map((membership) => ({ ...membership, role: 'member' as const })),
      },
      organizations: [acme],
    });
    renderWithProviders(<AppRoutes />, {
      route: '/app/orgs/acme/history',
      network: createFakeNetwork({ server: reads }),
    });

    expect(await screen.findByText(/Owners, admins and auditors read the history of Acme/)).toBeTruthy();
  });
});
