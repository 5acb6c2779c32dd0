// The SSO page from an owner's side: the addresses to register with the provider, the settings form
// (the client secret write-only, refusals in words with everything typed kept), enforce, turning it off;
// what other plans and other roles see.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { Organization, Role } from '../../api/contract';
import { adaSession, anOrganization, consoleServer } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

const enterprise = (settings: Organization['sso']['settings'] = null) => anOrganization({ sso: { available: true, settings } });
const since = '2030-01-02T10:00:00.000Z';
const record = (domain: string, value: string) => ({ name: `_chorus-verification.${domain}`, type: 'TXT' as const, value });
const configured = {
  issuer: 'https://login.acme.example',
  clientId: 'chorus',
  domains: ['acme.example', 'bücher.example'],
  enforce: false,
  trustProviderMfa: false,
  domainStates: [
    { domain: 'acme.example', status: 'verified' as const, since, recordMissingSince: null, record: record('acme.example', 'A'.repeat(32)), joinRole: null },
    { domain: 'bücher.example', status: 'pending' as const, since, recordMissingSince: null, record: record('xn--bcher-kva.example', 'B'.repeat(32)), joinRole: null },
  ],
};

function renderSso(organization: Organization = enterprise(), role: Role = 'owner') {
  const state = { session: adaSession([{ id: 'acme', name: 'Acme', role }]), organizations: [organization] };
  const network = createFakeNetwork({ server: consoleServer(state) });
  return { ...renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/sso', network }), state };
}

const form = () => screen.getByRole('form', { name: 'Single sign-on settings' });

describe('the SSO page', () => {
  it('gives the redirect URI and the sign-on link to register with the provider', async () => {
    renderSso();
    expect(await screen.findByRole('heading', { level: 1, name: 'SSO' })).toBeInTheDocument();
    expect(screen.getByText(`${window.location.origin}/auth/sso/callback`)).toBeInTheDocument();
    expect(screen.getByText(`${window.location.origin}/auth/sso/acme`)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('SSO · Acme · Chorus'));
  });

  it('turns single sign-on on with the settings typed, the domains as a list', async () => {
    const view = renderSso();
    await view.user.type(await screen.findByLabelText('Issuer URL'), 'https://login.acme.example');
    await view.user.type(screen.getByLabelText('Client ID'), 'chorus');
    await view.user.type(screen.getByLabelText('Client secret'), 's3cret');
    await view.user.type(screen.getByLabelText('Domains'), 'acme.example, bücher.example');
    await view.user.click(screen.getByRole('checkbox', { name: /Require single sign-on/ }));
    const trust = screen.getByRole('checkbox', { name: /Trust your provider’s two-step sign-in/ });
    expect(trust).not.toBeChecked();
    expect(trust).toHaveAccessibleDescription(/your provider must ask for a second factor itself/);
    await view.user.click(trust);
    await view.user.click(screen.getByRole('button', { name: 'Turn on single sign-on' }));
    const put = await view.network.take('PUT');
    expect(put).toMatchObject({
      url: '/organizations/acme/sso',
      body: { issuer: 'https://login.acme.example', clientId: 'chorus', clientSecret: 's3cret', domains: ['acme.example', 'bücher.example'], enforce: true, trustProviderMfa: true },
    });
    put.respond(200, { id: 'acme', revision: 5, position: 50 });
    await waitFor(() => expect(within(form()).getByRole('status')).toHaveTextContent('Single sign-on is saved.'));
    expect(screen.getByLabelText('Client secret')).toHaveValue('');
  });

  it('shows the saved settings but never a secret; left empty, the secret is not sent (the saved one is kept)', async () => {
    const view = renderSso(enterprise(configured));
    expect(await screen.findByLabelText('Issuer URL')).toHaveValue('https://login.acme.example');
    expect(screen.getByLabelText('Domains')).toHaveValue('acme.example, bücher.example');
    expect(screen.getByLabelText('Client secret')).toHaveValue('');
    expect(screen.getByLabelText('Client secret')).toHaveAccessibleDescription(/Leave empty to keep the saved secret/);
    await view.user.click(screen.getByRole('button', { name: 'Save changes' }));
    const put = await view.network.take('PUT');
    expect(put.body).toEqual({ issuer: 'https://login.acme.example', clientId: 'chorus', domains: ['acme.example', 'bücher.example'], enforce: false, trustProviderMfa: false });
  });

  it.each([
    [{ status: 422, code: 'SSO_DISCOVERY_FAILED', issuer: 'https://nope.example', detail: '' }, 'https://nope.example could not be reached as an OpenID provider', 'Issuer URL'],
    [{ status: 409, code: 'SSO_DOMAIN_TAKEN', domain: 'acme.example', detail: '' }, 'acme.example already signs in through another organization’s single sign-on.', 'Domains'],
    [{ status: 400, code: 'INVALID_HOSTNAME', field: 'domains', value: 'acme', detail: '' }, '“acme” is not a hostname', 'Domains'],
    [{ status: 409, code: 'ENTERPRISE_PLAN_REQUIRED', feature: 'sso', detail: '' }, 'Single sign-on is part of the Enterprise plans', null],
  ])('shows %j in words next to the form, marks its field and keeps what was typed', async (answer, words, field) => {
    const view = renderSso();
    await view.user.type(await screen.findByLabelText('Issuer URL'), 'https://nope.example');
    await view.user.type(screen.getByLabelText('Client ID'), 'chorus');
    await view.user.type(screen.getByLabelText('Client secret'), 's3cret');
    await view.user.type(screen.getByLabelText('Domains'), 'acme');
    await view.user.click(screen.getByRole('button', { name: 'Turn on single sign-on' }));
    (await view.network.take('PUT')).respond(answer.status, answer);
    await waitFor(() => expect(within(form()).getByRole('alert')).toHaveTextContent(words));
    if (field !== null) expect(screen.getByLabelText(field)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Issuer URL')).toHaveValue('https://nope.example');
    expect(screen.getByLabelText('Client secret')).toHaveValue('s3cret');
    expect(screen.getByLabelText('Domains')).toHaveValue('acme');
  });

  it('turns it off after asking', async () => {
    const view = renderSso(enterprise(configured));
    await view.user.click(await screen.findByRole('button', { name: 'Turn off single sign-on' }));
    const dialog = screen.getByRole('dialog', { name: 'Turn off single sign-on?' });
    expect(dialog).toHaveTextContent('acme.example, bücher.example will no longer sign in through your identity provider');
    await view.user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await view.network.take('DELETE')).toMatchObject({ url: '/organizations/acme/sso' });
  });

  it('says which plans include it, and offers no form, on another plan', async () => {
    renderSso(anOrganization());
    expect(await screen.findByText(/Single sign-on is part of the Enterprise plans/)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Single sign-on settings' })).not.toBeInTheDocument();
  });

  it('on another plan, gives an owner the way there, not "choose one" with nothing to choose', async () => {
    renderSso(anOrganization(), 'owner');
    expect(await screen.findByText(/Single sign-on is part of the Enterprise plans/)).toBeInTheDocument();
    // Without UPGRADE_URL or SUPPORT_EMAIL there is no way to offer: no "ask support" with no address.
    expect(screen.queryByText(/Chorus support/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Choose one/)).not.toBeInTheDocument();
  });

  it('says an Enterprise plan left idle by Chorus being off is why, and asks for Chorus to be turned on', async () => {
    renderSso(anOrganization({ chorus: false, chorusDetails: { plan: 'enterprise', parallelUse: null }, governingPlan: null }), 'owner');
    expect(await screen.findByText('Chorus is off, so Acme’s Chorus Enterprise plan, which includes single sign-on, is not in effect.')).toBeInTheDocument();
    expect(screen.queryByText(/Chorus support/)).not.toBeInTheDocument();
  });

  it('offers an admin no form: only owners change single sign-on', async () => {
    renderSso(enterprise(configured), 'admin');
    expect(await screen.findByText('Only an owner can change single sign-on.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Single sign-on settings' })).not.toBeInTheDocument();
  });

  it("shows each domain's state and the TXT record to publish, and checks it now, saying what DNS answered", async () => {
    const view = renderSso(enterprise(configured));
    const domains = await screen.findByRole('list', { name: 'Domain verification' });
    const [acme, buecher] = within(domains).getAllByRole('listitem');
    expect(acme).toHaveTextContent('acme.exampleVerified');
    expect(within(acme as HTMLElement).getByText('A'.repeat(32))).toBeInTheDocument();
    expect(buecher).toHaveTextContent('Waiting for DNS record');
    const published = within(buecher as HTMLElement).getByRole('group', { name: 'DNS record for bücher.example' });
    expect(within(published).getByText('_chorus-verification.xn--bcher-kva.example')).toBeInTheDocument();
    expect(within(published).getByText('TXT')).toBeInTheDocument();
    expect(within(published).getByText('B'.repeat(32))).toBeInTheDocument();
    await view.user.click(within(buecher as HTMLElement).getByRole('button', { name: 'Check now bücher.example' }));
    const check = await view.network.take('POST');
    expect(check.url).toBe('/organizations/acme/sso/domains/b%C3%BCcher.example/verify');
    check.respond(200, { domain: 'bücher.example', lookup: 'absent', status: 'pending' });
    expect(await screen.findByText(/The record of bücher.example was not found yet/)).toBeInTheDocument();
  });

  it('offers every member a link of their account to the organization’s single sign-on', async () => {
    renderSso(enterprise(configured), 'member');
    const link = await screen.findByRole('link', { name: 'Link my account' });
    expect(link.getAttribute('href')).toMatch(/^\/auth\/sso\/acme\?intent=link&redirect=/);
  });
});
