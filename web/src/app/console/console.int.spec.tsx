// The console's routes and frame from the user's side: where /app lands, the header, the navigation
// by role, document titles, and what happens when the session is gone.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import type { SessionAnswer } from '../../api/contract';
import { adaSession, anOrganization, consoleServer, type StoredOrganization } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';
import { AppRoutes } from '../router';

function renderConsole(
  route: string,
  session: SessionAnswer = adaSession(),
  organizations: StoredOrganization[] = [anOrganization()],
) {
  const network = createFakeNetwork({ server: consoleServer({ session, organizations }) });
  return renderWithProviders(<AppRoutes />, { route, network });
}

const heading = () => screen.findByRole('heading', { level: 1 });

describe('/app', () => {
  it("shows the overview of the user's only organization, named in the header and the title", async () => {
    renderConsole('/app');
    expect(await heading()).toHaveTextContent('Overview');
    expect(screen.getByRole('banner')).toHaveTextContent('Acme');
    await waitFor(() => expect(document.title).toBe('Overview · Acme · Chorus'));
  });

  it('offers a picker when the user belongs to several organizations', async () => {
    const view = renderConsole(
      '/app',
      adaSession([
        { id: 'acme', name: 'Acme', role: 'owner' },
        { id: 'globex', name: 'Globex', role: 'auditor' },
      ]),
      [anOrganization(), anOrganization({ id: 'globex', name: 'Globex' })],
    );
    expect(await heading()).toHaveTextContent('Your organizations');
    await view.user.click(screen.getByRole('link', { name: /Globex/ }));
    expect(await heading()).toHaveTextContent('Overview');
    expect(screen.getByRole('button', { name: 'Globex (switch organization)' })).toBeInTheDocument();
  });

  it("sends a user who belongs to no organization to the seed's message", async () => {
    const view = renderConsole('/app', adaSession([]), []);
    await waitFor(() => expect(view.navigate).toHaveBeenCalledWith('/login?error=account'));
  });

  it('sends a browser whose session ended to the login, to come back to the same page', async () => {
    const network = createFakeNetwork({
      server: ({ url }) =>
        url === '/session'
          ? { status: 401, body: { status: 401, code: 'UNAUTHENTICATED', detail: 'Sign in first.' } }
          : undefined,
    });
    const view = renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/sites?tab=1', network });
    await waitFor(() =>
      expect(view.navigate).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent('/app/orgs/acme/sites?tab=1')}`),
    );
  });

  it('says so when the user is not a member of the organization in the address', async () => {
    renderConsole('/app/orgs/initech');
    expect(await heading()).toHaveTextContent('No access');
  });
});

describe('the navigation', () => {
  it.each([
    ['owner', true, true, true],
    ['admin', false, true, true],
    ['auditor', false, true, false],
    ['member', false, false, false],
  ] as const)(
    'for an %s: Overview, Members, Sites, Domains, SSO for owners (%s), History where the role may read it (%s), Webhooks and Directory for owners and admins (%s)',
    async (role, sso, history, webhooks) => {
      renderConsole('/app/orgs/acme', adaSession([{ id: 'acme', name: 'Acme', role }]));
      const navigation = await screen.findByRole('navigation', { name: 'Acme' });
      const names = within(navigation)
        .getAllByRole('link')
        .map((link) => link.textContent);
      expect(names).toEqual([
        'Overview',
        'Members',
        'Sites',
        'Domains',
        ...(sso ? ['SSO'] : []),
        ...(history ? ['History'] : []),
        ...(webhooks ? ['Webhooks', 'Directory'] : []),
      ]);
      expect(within(navigation).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    },
  );

  it('moves between pages without a page load, each with its title', async () => {
    const view = renderConsole('/app/orgs/acme');
    await heading();
    for (const page of ['Members', 'Sites', 'Domains', 'SSO', 'History', 'Overview'] as const) {
      await view.user.click(screen.getByRole('link', { name: page }));
      expect(await screen.findByRole('heading', { level: 1, name: page })).toBeInTheDocument();
      await waitFor(() => expect(document.title).toBe(`${page} · Acme · Chorus`));
    }
    expect(view.navigate).not.toHaveBeenCalled();
  });
});

describe('the user menu', () => {
  it('holds "Account" and "Sign out"; signing out ends the session and goes to the login', async () => {
    const view = renderConsole('/app/orgs/acme');
    await heading();
    const menu = screen.getByRole('button', { name: /\(account menu\)$/ });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await view.user.click(menu);
    expect(screen.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/app/account');

    await view.user.click(screen.getByRole('button', { name: 'Sign out' }));
    const logout = await view.network.take('POST');
    expect(logout.url).toBe('/logout');
    logout.respond(204);
    await waitFor(() => expect(view.navigate).toHaveBeenCalledWith('/login'));
  });

  it('closes with Escape and gives the focus back to its button', async () => {
    const view = renderConsole('/app/orgs/acme');
    await heading();
    const menu = screen.getByRole('button', { name: /\(account menu\)$/ });
    await view.user.click(menu);
    await view.user.keyboard('{Escape}');
    expect(screen.queryByRole('link', { name: 'Account' })).not.toBeInTheDocument();
    expect(menu).toHaveFocus();
  });

  it('leads to the account page, titled with the organization last seen', async () => {
    const view = renderConsole('/app/orgs/acme');
    await heading();
    await view.user.click(screen.getByRole('button', { name: /\(account menu\)$/ }));
    await view.user.click(screen.getByRole('link', { name: 'Account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Account · Acme · Chorus'));
  });
});
