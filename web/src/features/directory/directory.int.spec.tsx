// The Directory page (docs/console.md, Directory): the SCIM base URL, tokens made (shown once), listed with their last
// use and revoked after a confirmation; the group-to-role mapping, saved whole by an owner and read-only for an admin;
// and how each verified domain's people join. Other roles and plans get a sentence, and the server is asked nothing.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { Role } from '../../api/contract';
import { adaSession, anOrganization, consoleServer, type StoredOrganization } from '../../testing/console-fixtures';
import { createFakeNetwork, type FakeServer } from '../../testing/fake-network';
import { formatDateTime } from '../../lib/date-time';
import { renderWithProviders } from '../../testing/render-with-providers';
import type { GroupRoles, ScimRequest, ScimToken } from './api/directory-api';

const okta: ScimToken = {
  id: 'a'.repeat(24),
  name: 'Okta',
  createdAt: '2030-03-01T09:00:00.000Z',
  lastUsedAt: '2030-03-12T09:41:05.000Z',
  revokedAt: null,
};
const old: ScimToken = {
  id: 'b'.repeat(24),
  name: 'Old',
  createdAt: '2030-01-01T09:00:00.000Z',
  lastUsedAt: null,
  revokedAt: '2030-02-01T09:00:00.000Z',
};
const record = { name: '_chorus-verification.acme.example', type: 'TXT' as const, value: 'A'.repeat(32) };
const enterprise = (): StoredOrganization => {
  const organization = anOrganization();
  return {
    ...organization,
    sso: {
      available: true,
      settings: {
        issuer: 'https://idp.acme.example',
        clientId: 'chorus',
        domains: ['acme.example'],
        enforce: false,
        trustProviderMfa: false,
        domainStates: [
          {
            domain: 'acme.example',
            status: 'verified',
            since: '2030-01-01T00:00:00.000Z',
            recordMissingSince: null,
            record,
            joinRole: null,
          },
        ],
      },
    },
  };
};

type State = { tokens: ScimToken[]; roles: GroupRoles; requests: ScimRequest[] };

function directoryServer(state: State, role: Role, organization: StoredOrganization): FakeServer {
  const reads = consoleServer({
    session: adaSession([{ id: 'acme', name: 'Acme', role }]),
    organizations: [organization],
  });
  return (request) => {
    if (request.method !== 'GET') return undefined;
    const path = request.url.split('?')[0] ?? '';
    if (path === '/organizations/acme/scim/tokens') return { status: 200, body: { tokens: state.tokens } };
    if (path === '/organizations/acme/scim/group-roles') return { status: 200, body: state.roles };
    if (path === '/organizations/acme/scim/requests') return { status: 200, body: { requests: state.requests } };
    return reads(request);
  };
}

function renderDirectory({
  role = 'owner' as Role,
  organization = enterprise(),
  tokens = [okta, old],
  roles = {} as GroupRoles,
  requests = [] as ScimRequest[],
} = {}) {
  const state: State = { tokens, roles, requests };
  const network = createFakeNetwork({ server: directoryServer(state, role, organization) });
  return { ...renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/directory', network }), state };
}

describe('the Directory page', () => {
  it('gives the base URL and lists the live tokens with their last use', async () => {
    renderDirectory();
    expect(await screen.findByRole('heading', { level: 1, name: 'Directory' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Directory · Acme · Chorus'));
    expect(screen.getByText(`${window.location.origin}/scim/v2`)).toBeInTheDocument();
    const tokens = await screen.findByRole('list', { name: 'Tokens' });
    expect(
      within(tokens)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Okta']);
    expect(within(tokens).getByRole('listitem', { name: 'Okta' })).toHaveTextContent(
      `Last used ${formatDateTime(okta.lastUsedAt ?? '')}.`,
    );
  });

  it('lists the identity provider’s last requests, how each ended, and with which token', async () => {
    renderDirectory({
      requests: [
        { method: 'PATCH', path: '/scim/v2/Users/3f2a', status: 409, tokenId: okta.id, at: '2030-03-12T09:41:05.000Z' },
        {
          method: 'POST',
          path: '/scim/v2/Users',
          status: 201,
          tokenId: 'f'.repeat(24),
          at: '2030-03-12T09:40:05.000Z',
        },
      ],
    });
    const requests = await screen.findByRole('list', { name: 'Recent requests' });
    const [conflict, created] = within(requests).getAllByRole('listitem');
    expect(conflict).toHaveTextContent('PATCH /Users/3f2a');
    expect(conflict).toHaveTextContent('409 Refused: a conflict (already there, the users limit, or the last owner)');
    await waitFor(() => expect(conflict).toHaveTextContent('with the token “Okta”'));
    expect(created).toHaveTextContent('POST /Users');
    expect(created).toHaveTextContent('201 Created');
    expect(created).toHaveTextContent('with the token “a revoked token”');
  });

  it('makes a token, shows it once with its heading focused, and copies it', async () => {
    const view = renderDirectory({ tokens: [] });
    const form = await screen.findByRole('form', { name: 'New token' });
    await view.user.click(within(form).getByRole('button', { name: 'Make token' }));
    const alert = await within(form).findByRole('alert');
    await waitFor(() =>
      expect(alert).toHaveTextContent('Give the token a name, e.g. the identity provider that holds it.'),
    );
    await view.user.type(within(form).getByLabelText('Token name'), 'Entra ID');
    await view.user.click(within(form).getByRole('button', { name: 'Make token' }));
    const post = await view.network.take('POST');
    expect(post).toMatchObject({ url: '/organizations/acme/scim/tokens', body: { name: 'Entra ID' } });
    view.state.tokens = [{ ...okta, id: 'c'.repeat(24), name: 'Entra ID', lastUsedAt: null }];
    post.respond(201, { ...view.state.tokens[0], token: 'chscim_acme.cccc.secret' });

    const shown = await screen.findByRole('group', { name: 'Token “Entra ID”' });
    expect(within(shown).getByText('chscim_acme.cccc.secret')).toBeInTheDocument();
    expect(within(shown).getByRole('heading')).toHaveFocus();
    await view.user.click(within(shown).getByRole('button', { name: 'Copy the token' }));
    expect(await navigator.clipboard.readText()).toBe('chscim_acme.cccc.secret');
    await view.user.click(within(shown).getByRole('button', { name: 'I have saved it' }));
    expect(screen.queryByText('chscim_acme.cccc.secret')).not.toBeInTheDocument();
  });

  it('revokes a token after a confirmation', async () => {
    const view = renderDirectory();
    await view.user.click(await screen.findByRole('button', { name: 'Revoke the token “Okta”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the token “Okta”?' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    const deletion = await view.network.take('DELETE');
    expect(deletion.url).toBe(`/organizations/acme/scim/tokens/${okta.id}`);
    view.state.tokens = [];
    deletion.respond(204);
    expect(await screen.findByText('The token “Okta” no longer works.')).toBeInTheDocument();
  });

  it('saves the whole group mapping for an owner, and says a refusal in words', async () => {
    const view = renderDirectory({ roles: { 'Chorus Admins': 'admin' } });
    const form = await screen.findByRole('form', { name: 'Roles from groups' });
    expect(await within(form).findByLabelText('Group 1')).toHaveValue('Chorus Admins');
    await view.user.click(within(form).getByRole('button', { name: 'Add a group' }));
    await view.user.type(within(form).getByLabelText('Group 2'), 'Chorus Owners');
    await view.user.selectOptions(within(form).getByLabelText('Role for group 2'), 'owner');
    await view.user.click(within(form).getByRole('button', { name: 'Save the mapping' }));
    const refused = await view.network.take('PUT');
    expect(refused).toMatchObject({
      url: '/organizations/acme/scim/group-roles',
      body: { 'Chorus Admins': 'admin', 'Chorus Owners': 'owner' },
    });
    refused.respond(409, { status: 409, code: 'LAST_OWNER', detail: '' });
    const alert = await within(form).findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('This mapping would leave the organization without an owner'));
    expect(within(form).getByLabelText('Group 2')).toHaveValue('Chorus Owners');

    await view.user.click(within(form).getByRole('button', { name: 'Save the mapping' }));
    const saved = await view.network.take('PUT');
    view.state.roles = { 'Chorus Admins': 'admin', 'Chorus Owners': 'owner' };
    saved.respond(200, view.state.roles);
    expect(await within(form).findByText('Saved. Every provisioned member’s role now follows it.')).toBeInTheDocument();
  });

  it('shows an admin the mapping and the joins without letting them change either', async () => {
    renderDirectory({ role: 'admin', roles: { 'Chorus Admins': 'admin' } });
    const form = await screen.findByRole('form', { name: 'Roles from groups' });
    expect(await within(form).findByLabelText('Group 1')).toBeDisabled();
    expect(within(form).queryByRole('button', { name: 'Save the mapping' })).not.toBeInTheDocument();
    expect(screen.getByText('Only owners change the mapping: it can make owners.')).toBeInTheDocument();
    expect(screen.getByLabelText('People of acme.example join')).toBeDisabled();
  });

  it('sets how a verified domain’s people join', async () => {
    const view = renderDirectory();
    const join = await screen.findByLabelText('People of acme.example join');
    expect(join).toHaveValue('invitation');
    await view.user.selectOptions(join, 'auditor');
    await view.user.click(screen.getByRole('button', { name: 'Save for acme.example' }));
    const put = await view.network.take('PUT');
    expect(put).toMatchObject({
      url: '/organizations/acme/sso/domains/acme.example/join',
      body: { join: 'automatic', role: 'auditor' },
    });
    put.respond(200, { id: 'acme', revision: 9, position: 99 });
    expect(await screen.findByText('People of acme.example now join on signing in, as auditors.')).toBeInTheDocument();
  });

  it('says what an organization without an enterprise plan gets, and asks nothing of the directory', async () => {
    const view = renderDirectory({ organization: anOrganization() });
    expect(await screen.findByText(/Directory provisioning comes with the enterprise plans/)).toBeInTheDocument();
    expect(view.network.requests.map((request) => request.url)).not.toContainEqual(expect.stringContaining('/scim'));
  });

  it.each(['member', 'auditor'] as const)('is not for a %s', async (role) => {
    const view = renderDirectory({ role });
    expect(
      await screen.findByText('Owners and admins connect Acme’s identity provider here; ask one of them.'),
    ).toBeInTheDocument();
    expect(view.network.requests.map((request) => request.url)).not.toContainEqual(expect.stringContaining('/scim'));
  });
});
