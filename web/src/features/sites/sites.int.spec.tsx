// Sites from the user's side: the "Add site" form states the seed's hostname rule, refusals come back in
// words with the typed values kept, hostnames show in Unicode form, and the limit is said before typing.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { Organization } from '../../api/contract';
import { defaultPageConfig, type PageConfig } from '../../config/page-config-slice';
import { adaSession, anOrganization, consoleServer, type StoredOrganization } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

const site = (siteId: string, name: string, hostname: string) => ({
  siteId,
  name,
  hostname,
  ...(anOrganization().siteDefaults as NonNullable<Organization['siteDefaults']>),
});

function renderSites(organization: StoredOrganization = anOrganization(), contact: Partial<PageConfig> = {}) {
  const network = createFakeNetwork({
    server: consoleServer({ session: adaSession(), organizations: [organization] }),
  });
  return renderWithProviders(<AppRoutes />, {
    route: '/app/orgs/acme/sites',
    network,
    preloadedState: { pageConfig: { ...defaultPageConfig, ...contact } },
  });
}

const form = () => screen.getByRole('form', { name: 'Add site' });

describe('the sites page', () => {
  it("states the seed's hostname rule as the field's help text", async () => {
    renderSites();
    const hostname = await screen.findByLabelText('Hostname');
    expect(hostname).toHaveAccessibleDescription(/needs a dot, unless it is localhost/);
    expect(hostname).toHaveAccessibleDescription(/starting with http:\/\/ or https:\/\//);
  });

  it('lists sites by name and hostname in Unicode form', async () => {
    renderSites(
      anOrganization({
        sites: [site('s1', 'Bücher', 'bücher.example')],
        usage: { ...anOrganization().usage, contentSections: 1 },
      }),
    );
    const list = await screen.findByRole('list', { name: 'Sites' });
    expect(within(list).getByRole('listitem')).toHaveTextContent('Bücherbücher.example');
  });

  it('says what is wrong with the hostname before sending anything, in the server’s words, keeping what was typed', async () => {
    const view = renderSites();
    await view.user.type(await screen.findByLabelText('Name'), 'Web shop');
    await view.user.type(screen.getByLabelText('Hostname'), 'shop');
    await view.user.click(screen.getByRole('button', { name: 'Add site' }));
    await waitFor(() =>
      expect(within(form()).getByRole('alert')).toHaveTextContent('“shop” is not a hostname: it needs a dot'),
    );
    expect(view.network.requests.some((request) => request.method === 'POST')).toBe(false);
    expect(screen.getByLabelText('Name')).toHaveValue('Web shop');
    expect(screen.getByLabelText('Hostname')).toHaveValue('shop');
    expect(screen.getByLabelText('Hostname')).toHaveAttribute('aria-invalid', 'true');
  });

  it('asks for a name before sending anything', async () => {
    const view = renderSites();
    await view.user.type(await screen.findByLabelText('Hostname'), 'shop.example.com');
    await view.user.click(screen.getByRole('button', { name: 'Add site' }));
    await waitFor(() => expect(within(form()).getByRole('alert')).toHaveTextContent('Enter a name.'));
    expect(view.network.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('shows a refusal of the server in words, keeping what was typed', async () => {
    const view = renderSites();
    await view.user.type(await screen.findByLabelText('Name'), 'Web shop');
    await view.user.type(screen.getByLabelText('Hostname'), 'shop.example.com');
    await view.user.click(screen.getByRole('button', { name: 'Add site' }));
    const post = await view.network.take('POST');
    expect(post).toMatchObject({
      url: '/organizations/acme/sites',
      body: { name: 'Web shop', hostname: 'shop.example.com' },
    });
    post.respond(409, { status: 409, code: 'DUPLICATE', field: 'hostname', value: 'shop.example.com', detail: '' });
    await waitFor(() =>
      expect(within(form()).getByRole('alert')).toHaveTextContent('shop.example.com is already one of your sites.'),
    );
    expect(screen.getByLabelText('Hostname')).toHaveValue('shop.example.com');
  });

  const atLimit = () =>
    anOrganization({
      sites: [site('s1', 'One', 'one.example'), site('s2', 'Two', 'two.example')],
      usage: { ...anOrganization().usage, contentSections: 2 },
      canAdd: { ...anOrganization().canAdd, contentSections: false },
    });

  it('says the sites limit is reached before anyone types, and what raises it', async () => {
    renderSites(atLimit(), { upgradeUrl: 'https://billing.example.com/portal' });
    expect(await screen.findByText('Sites limit reached: 2 of 2')).toBeInTheDocument();
    expect(
      screen.getByText('Each Additional site add-on adds one site, and a larger plan allows more.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change the plan or add-ons' })).toHaveAttribute(
      'href',
      'https://billing.example.com/portal',
    );
    expect(screen.getByRole('region', { name: 'Your sites' })).toHaveTextContent('2 of 2 sites');
  });

  it('at a limit Chorus set for the organization, says why an add-on would not raise it and offers only the support address', async () => {
    const set = atLimit();
    renderSites(
      {
        ...set,
        limits: {
          ...set.limits,
          setByOperator: {
            users: false,
            contentSections: true,
            qualityAssuranceDomains: false,
            webAnalyticsDomains: false,
          },
        },
      },
      { upgradeUrl: 'https://billing.example.com/portal', supportEmail: 'help@chorus.example' },
    );
    expect(await screen.findByText('Sites limit reached: 2 of 2')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Acme’s limit of 2 sites was set by Chorus, so neither an Additional site add-on nor another plan would raise it: only Chorus can.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'help@chorus.example' })).toHaveAttribute(
      'href',
      'mailto:help@chorus.example',
    );
    expect(screen.queryByRole('link', { name: 'Change the plan or add-ons' })).not.toBeInTheDocument();
  });

  it('without UPGRADE_URL or SUPPORT_EMAIL, offers no "ask support" that leads nowhere', async () => {
    renderSites(atLimit());
    expect(await screen.findByText('Sites limit reached: 2 of 2')).toBeInTheDocument();
    expect(screen.queryByText(/Chorus support/)).not.toBeInTheDocument();
    expect(document.querySelector('.add-form .way-forward')).toBeNull();
  });

  it('after the plan ended, says none can be added rather than "of unlimited"', async () => {
    renderSites(
      anOrganization({
        governingPlan: null,
        chorus: false,
        chorusDetails: { plan: null, parallelUse: null },
        sites: [site('s1', 'One', 'one.example')],
        usage: { ...anOrganization().usage, contentSections: 1 },
        canAdd: { ...anOrganization().canAdd, contentSections: false },
        limits: {
          ...anOrganization().limits,
          effective: { ...anOrganization().limits.effective, contentSections: null },
        },
      }),
    );
    expect(await screen.findByRole('region', { name: 'Your sites' })).toHaveTextContent(
      '1 in use: none can be added without a plan',
    );
    expect(screen.queryByText(/unlimited/)).not.toBeInTheDocument();
  });

  it('at the limit, a bad hostname shows one message, not two', async () => {
    const view = renderSites(atLimit());
    await view.user.type(await screen.findByLabelText('Name'), 'Three');
    await view.user.type(screen.getByLabelText('Hostname'), 'three');
    await view.user.click(screen.getByRole('button', { name: 'Add site' }));
    await waitFor(() => expect(within(form()).getByRole('alert')).toHaveTextContent('“three” is not a hostname'));
    expect(screen.queryByText('Sites limit reached: 2 of 2')).not.toBeInTheDocument();
    expect(document.querySelectorAll('.add-form .notice')).toHaveLength(1);
  });

  it('says a removal is done', async () => {
    const view = renderSites(
      anOrganization({
        sites: [site('s1', 'One', 'one.example')],
        usage: { ...anOrganization().usage, contentSections: 1 },
      }),
    );
    await view.user.click(await screen.findByRole('button', { name: 'Remove One' }));
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    (await view.network.take('DELETE')).respond(200, { id: 'acme', revision: 9, position: 50 });
    expect(await screen.findByText('One is removed.')).toBeInTheDocument();
  });
});
