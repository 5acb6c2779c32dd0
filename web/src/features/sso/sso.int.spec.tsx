// The SSO page from an owner's side: the addresses to register with the provider, the settings form
// (the client secret write-only, refusals in words with everything typed kept), enforce, turning it off;
// SAML 2.0 beside OpenID Connect (the values for the provider, the metadata as a URL or pasted, what was saved);
// what other plans and other roles see.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { Organization, Role, SamlSsoSettings } from '../../api/contract';
import { adaSession, anOrganization, consoleServer, type StoredOrganization } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

const enterprise = (settings: Organization['sso']['settings'] = null) =>
  anOrganization({ sso: { available: true, settings } });
const since = '2030-01-02T10:00:00.000Z';
const record = (domain: string, value: string) => ({
  name: `_chorus-verification.${domain}`,
  type: 'TXT' as const,
  value,
});
const configured = {
  issuer: 'https://login.acme.example',
  clientId: 'chorus',
  domains: ['acme.example', 'bücher.example'],
  enforce: false,
  trustProviderMfa: false,
  domainStates: [
    {
      domain: 'acme.example',
      status: 'verified' as const,
      since,
      recordMissingSince: null,
      record: record('acme.example', 'A'.repeat(32)),
      joinRole: null,
    },
    {
      domain: 'bücher.example',
      status: 'pending' as const,
      since,
      recordMissingSince: null,
      record: record('xn--bcher-kva.example', 'B'.repeat(32)),
      joinRole: null,
    },
  ],
};

const DAY = 24 * 60 * 60 * 1000;
const certificate = (notAfter: string, sha256 = 'ab'.repeat(32)) => ({ sha256, notAfter });
const samlConfigured = (overrides: Partial<SamlSsoSettings> = {}): SamlSsoSettings => ({
  protocol: 'saml',
  idpEntityId: 'https://login.acme.example/saml',
  ssoUrl: 'https://login.acme.example/saml/sso',
  metadataUrl: 'https://login.acme.example/saml/metadata',
  certificates: [certificate('2040-03-12T00:00:00.000Z')],
  allowIdpInitiated: false,
  domains: ['acme.example'],
  enforce: false,
  trustProviderMfa: false,
  domainStates: configured.domainStates.slice(0, 1),
  ...overrides,
});
const METADATA_XML =
  '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://login.acme.example/saml"/>';

function renderSso(organization: StoredOrganization = enterprise(), role: Role = 'owner') {
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
      body: {
        issuer: 'https://login.acme.example',
        clientId: 'chorus',
        clientSecret: 's3cret',
        domains: ['acme.example', 'bücher.example'],
        enforce: true,
        trustProviderMfa: true,
      },
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
    expect(put.body).toEqual({
      issuer: 'https://login.acme.example',
      clientId: 'chorus',
      domains: ['acme.example', 'bücher.example'],
      enforce: false,
      trustProviderMfa: false,
    });
  });

  it.each([
    [
      { status: 422, code: 'SSO_DISCOVERY_FAILED', issuer: 'https://nope.example', detail: '' },
      'https://nope.example could not be reached as an OpenID provider',
      'Issuer URL',
    ],
    [
      { status: 409, code: 'SSO_DOMAIN_TAKEN', domain: 'acme.example', detail: '' },
      'acme.example already signs in through another organization’s single sign-on.',
      'Domains',
    ],
    [
      { status: 400, code: 'INVALID_HOSTNAME', field: 'domains', value: 'acme', detail: '' },
      '“acme” is not a hostname',
      'Domains',
    ],
    [
      { status: 409, code: 'ENTERPRISE_PLAN_REQUIRED', feature: 'sso', detail: '' },
      'Single sign-on is part of the Enterprise plans',
      null,
    ],
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
    expect(dialog).toHaveTextContent(
      'acme.example, bücher.example will no longer sign in through your identity provider',
    );
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
    renderSso(
      anOrganization({ chorus: false, chorusDetails: { plan: 'enterprise', parallelUse: null }, governingPlan: null }),
      'owner',
    );
    expect(
      await screen.findByText(
        'Chorus is off, so Acme’s Chorus Enterprise plan, which includes single sign-on, is not in effect.',
      ),
    ).toBeInTheDocument();
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
  describe('through SAML 2.0', () => {
    const chooseSaml = async (view: ReturnType<typeof renderSso>) => {
      await view.user.click(await screen.findByRole('radio', { name: /SAML 2\.0/ }));
    };
    const puts = (view: ReturnType<typeof renderSso>) =>
      view.network.requests.filter((request) => request.method === 'PUT');

    it('offers it beside OpenID Connect, chosen with the keyboard too, and gives the values for the provider of this organization', async () => {
      const view = renderSso();
      const protocol = await screen.findByRole('group', { name: 'Protocol' });
      const oidc = within(protocol).getByRole('radio', { name: /OpenID Connect/ });
      expect(oidc).toBeChecked();
      oidc.focus();
      await view.user.keyboard('{ArrowDown}');
      expect(within(protocol).getByRole('radio', { name: /SAML 2\.0/ })).toBeChecked();
      const values = screen.getByRole('group', { name: 'Give your provider these values' });
      const base = `${window.location.origin}/auth/saml/acme`;
      const named = (name: string) => within(values).getByText(name).nextElementSibling;
      expect(named('Entity ID (Audience URI / Identifier)')).toHaveTextContent(`${base}/metadata`);
      expect(named('Single sign-on URL (ACS / Reply URL)')).toHaveTextContent(`${base}/acs`);
      expect(named('Metadata URL')).toHaveTextContent(`${base}/metadata`);
      expect(named('Name ID format')).toHaveTextContent('EmailAddress');
      // The OpenID Connect addresses and fields are not the ones to give now.
      expect(screen.queryByText(`${window.location.origin}/auth/sso/callback`)).not.toBeInTheDocument();
      expect(screen.queryByLabelText('Issuer URL')).not.toBeInTheDocument();
    });

    it('sends the metadata URL with the domains and the options, IdP-initiated sign-in off unless chosen', async () => {
      const view = renderSso();
      await chooseSaml(view);
      await view.user.type(
        screen.getByLabelText('Your provider’s metadata URL'),
        'https://login.acme.example/saml/metadata',
      );
      await view.user.type(screen.getByLabelText('Domains'), 'acme.example');
      const idpInitiated = screen.getByRole('checkbox', {
        name: /Allow sign-in started from your provider \(IdP-initiated\)/,
      });
      expect(idpInitiated).not.toBeChecked();
      expect(idpInitiated).toHaveAccessibleDescription(/Chorus then accepts sign-ins it did not ask for/);
      await view.user.click(idpInitiated);
      await view.user.click(screen.getByRole('button', { name: 'Turn on single sign-on' }));
      const put = await view.network.take('PUT');
      expect(put.url).toBe('/organizations/acme/sso');
      expect(put.body).toEqual({
        protocol: 'saml',
        metadataUrl: 'https://login.acme.example/saml/metadata',
        domains: ['acme.example'],
        enforce: false,
        trustProviderMfa: false,
        allowIdpInitiated: true,
      });
      put.respond(200, { id: 'acme', revision: 5, position: 50 });
      await waitFor(() => expect(within(form()).getByRole('status')).toHaveTextContent('Single sign-on is saved.'));
    });

    it('sends the metadata XML pasted instead', async () => {
      const view = renderSso();
      await chooseSaml(view);
      await view.user.click(screen.getByLabelText('Your provider’s metadata XML'));
      await view.user.paste(METADATA_XML);
      await view.user.type(screen.getByLabelText('Domains'), 'acme.example');
      await view.user.click(screen.getByRole('button', { name: 'Turn on single sign-on' }));
      expect((await view.network.take('PUT')).body).toEqual({
        protocol: 'saml',
        metadataXml: METADATA_XML,
        domains: ['acme.example'],
        enforce: false,
        trustProviderMfa: false,
        allowIdpInitiated: false,
      });
    });

    it('asks for the metadata once, not twice, before sending anything', async () => {
      const view = renderSso();
      await chooseSaml(view);
      await view.user.type(screen.getByLabelText('Domains'), 'acme.example');
      await view.user.click(screen.getByRole('button', { name: 'Turn on single sign-on' }));
      expect(within(form()).getByRole('alert')).toHaveTextContent(
        'Give your provider’s metadata URL, or paste its metadata XML.',
      );
      expect(screen.getByLabelText('Your provider’s metadata URL')).toHaveAttribute('aria-invalid', 'true');
      await view.user.type(
        screen.getByLabelText('Your provider’s metadata URL'),
        'https://login.acme.example/saml/metadata',
      );
      await view.user.click(screen.getByLabelText('Your provider’s metadata XML'));
      await view.user.paste(METADATA_XML);
      await view.user.click(screen.getByRole('button', { name: 'Turn on single sign-on' }));
      expect(within(form()).getByRole('alert')).toHaveTextContent(
        'Give the metadata URL or the metadata XML, not both',
      );
      expect(screen.getByLabelText('Your provider’s metadata URL')).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText('Your provider’s metadata XML')).toHaveAttribute('aria-invalid', 'true');
      expect(puts(view)).toHaveLength(0);
    });

    it.each([
      [
        'Your provider’s metadata URL',
        { status: 422, code: 'SSO_METADATA_INVALID', detail: 'The identity provider names no signing certificate.' },
        /Chorus could not read your provider’s SAML metadata.*names no signing certificate\./,
      ],
      [
        'Your provider’s metadata XML',
        { status: 422, code: 'SSO_METADATA_INVALID', detail: '' },
        /Chorus could not read your provider’s SAML metadata: check the metadata URL, or paste the metadata XML/,
      ],
      [
        'Your provider’s metadata URL',
        {
          status: 400,
          code: 'VALIDATION_FAILED',
          detail: 'metadataUrl must be an https:// URL.',
          errors: [{ pointer: '#/metadataUrl', detail: '' }],
        },
        /starting with https:\/\//,
      ],
    ])('marks the %s when the server answers %j, keeping what was typed', async (field, answer, words) => {
      const view = renderSso();
      await chooseSaml(view);
      const other =
        field === 'Your provider’s metadata URL' ? 'Your provider’s metadata XML' : 'Your provider’s metadata URL';
      await view.user.click(screen.getByLabelText(field));
      await view.user.paste(
        field === 'Your provider’s metadata URL' ? 'https://login.acme.example/saml/metadata' : METADATA_XML,
      );
      await view.user.type(screen.getByLabelText('Domains'), 'acme.example');
      await view.user.click(screen.getByRole('button', { name: 'Turn on single sign-on' }));
      (await view.network.take('PUT')).respond(answer.status, answer);
      await waitFor(() => expect(within(form()).getByRole('alert')).toHaveTextContent(words));
      expect(screen.getByLabelText(field)).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText(field)).toHaveAccessibleDescription(words);
      expect(screen.getByLabelText(other)).not.toHaveAttribute('aria-invalid');
      expect(screen.getByLabelText(field)).toHaveValue(
        field === 'Your provider’s metadata URL' ? 'https://login.acme.example/saml/metadata' : METADATA_XML,
      );
    });

    it('shows what the saved metadata said, with each signing certificate’s expiry; left untouched, the metadata is not sent again', async () => {
      const view = renderSso(enterprise(samlConfigured()));
      expect(await screen.findByRole('radio', { name: /SAML 2\.0/ })).toBeChecked();
      expect(screen.getByText('Set up with SAML 2.0 for acme.example.')).toBeInTheDocument();
      const provider = screen.getByRole('group', { name: 'Your provider, as Chorus saved it' });
      expect(within(provider).getByText('https://login.acme.example/saml')).toBeInTheDocument();
      expect(within(provider).getByText('https://login.acme.example/saml/sso')).toBeInTheDocument();
      const [saved] = within(within(provider).getByRole('list', { name: 'Signing certificates' })).getAllByRole(
        'listitem',
      );
      expect(saved).toHaveTextContent('Signing certificate expires on 12 March 2040');
      expect(saved).toHaveTextContent(`SHA-256 fingerprint ${Array(32).fill('AB').join(':')}`);
      expect(within(provider).queryByText(/Make a new signing certificate/)).not.toBeInTheDocument();
      expect(screen.getByLabelText('Your provider’s metadata URL')).toHaveValue(
        'https://login.acme.example/saml/metadata',
      );
      expect(screen.getByLabelText('Your provider’s metadata XML')).toHaveAccessibleDescription(
        /Left empty, the saved settings above are kept/,
      );
      await view.user.click(screen.getByRole('button', { name: 'Save changes' }));
      const kept = await view.network.take('PUT');
      expect(kept.body).toEqual({
        protocol: 'saml',
        domains: ['acme.example'],
        enforce: false,
        trustProviderMfa: false,
        allowIdpInitiated: false,
      });
      kept.respond(200, { id: 'acme', revision: 5, position: 50 });
      await waitFor(() => expect(within(form()).getByRole('status')).toHaveTextContent('Single sign-on is saved.'));
      await view.user.click(screen.getByRole('checkbox', { name: /Read the metadata again when saving/ }));
      await view.user.click(screen.getByRole('button', { name: 'Save changes' }));
      expect((await view.network.take('PUT')).body).toMatchObject({
        protocol: 'saml',
        metadataUrl: 'https://login.acme.example/saml/metadata',
      });
    });

    it('warns in words when the signing certificate expires within 30 days, not when a newer one is saved already', async () => {
      const soon = new Date(Date.now() + 10 * DAY).toISOString();
      const { unmount } = renderSso(enterprise(samlConfigured({ certificates: [certificate(soon)] })));
      const provider = await screen.findByRole('group', { name: 'Your provider, as Chorus saved it' });
      expect(within(provider).getByRole('listitem')).toHaveTextContent(/Signing certificate expires on .+, in 10 days/);
      expect(provider).toHaveTextContent(
        /after that, sign-in through your provider stops\.Make a new signing certificate at your provider/,
      );
      unmount();
      renderSso(
        enterprise(
          samlConfigured({
            certificates: [certificate(soon), certificate('2040-03-12T00:00:00.000Z', 'cd'.repeat(32))],
          }),
        ),
      );
      const both = await screen.findByRole('group', { name: 'Your provider, as Chorus saved it' });
      expect(within(both).getAllByRole('listitem')[0]).toHaveTextContent(/in 10 days/);
      expect(within(both).queryByText(/Make a new signing certificate/)).not.toBeInTheDocument();
    });

    it('says that saving with the other protocol replaces the saved one', async () => {
      const view = renderSso(enterprise({ ...configured, protocol: 'oidc' }));
      await chooseSaml(view);
      expect(screen.getByRole('group', { name: 'Protocol' })).toHaveAccessibleDescription(
        'Saving switches single sign-on to SAML 2.0: the saved OpenID Connect settings are replaced.',
      );
    });
  });
});
