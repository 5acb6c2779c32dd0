// The Members page from the user's side: the limit said before anyone types, every refusal in words next
// to the form with nothing typed lost, confirmation before removing, roles offered by role, and the
// list read again at the position the server answered (read your own writes).
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { Organization, Problem, Role } from '../../api/contract';
import { adaSession, anOrganization, consoleServer, member, withMembers } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

function renderMembers({ role = 'owner' as Role, organization = anOrganization() } = {}) {
  const state = { session: adaSession([{ id: 'acme', name: 'Acme', role }]), organizations: [organization] };
  const network = createFakeNetwork({ server: consoleServer(state) });
  const view = renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/members', network });
  const write = (method: string) => network.take(method);
  return { ...view, state, write, setOrganization: (next: Organization) => (state.organizations = [next]) };
}

const form = () => screen.getByRole('form', { name: 'Add member' });
const emailField = () => within(form()).getByLabelText('E-mail');
const roleField = () => within(form()).getByLabelText('Role');
const refusal = (problem: Partial<Problem> & { code: string }) => ({ status: 409, detail: '', ...problem });

const full = withMembers(anOrganization(), [
  member('ada@acme.example', 'owner'),
  member('bob@acme.example', 'admin', { invited: true }),
  member('cem@acme.example', 'member'),
  member('dee@acme.example', 'auditor', { chorusUser: true }),
  member('eve@acme.example', 'member'),
]);

describe('the members list', () => {
  it('shows e-mail, role, Chorus user and "Invited" until the person has signed in once', async () => {
    renderMembers({ role: 'member', organization: full });
    const list = await screen.findByRole('list', { name: 'Members' });
    const rows = within(list).getAllByRole('listitem').map((row) => row.textContent);
    expect(rows).toEqual([
      'ada@acme.example (you)Owner',
      expect.stringMatching(/^bob@acme\.example\s*AdminInvited/),
      expect.stringMatching(/^cem@acme\.example\s*Member/),
      expect.stringMatching(/^dee@acme\.example\s*AuditorChorus user/),
      expect.stringMatching(/^eve@acme\.example\s*Member/),
    ]);
    expect(screen.getByRole('progressbar', { name: 'Users' })).toHaveAttribute('aria-valuenow', '5');
  });

  it('lets members and auditors read it, without the form or Remove', async () => {
    renderMembers({ role: 'auditor', organization: full });
    await screen.findByRole('list', { name: 'Members' });
    expect(screen.queryByRole('form', { name: 'Add member' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
  });
});

describe('adding a member', () => {
  it('says "Users limit reached: 5 of 5" and what raises it before anyone types', async () => {
    renderMembers({ organization: full });
    await screen.findByRole('form', { name: 'Add member' });
    expect(screen.getByText('Users limit reached: 5 of 5')).toBeInTheDocument();
    expect(screen.getByText('An Additional user add-on, or another plan, raises it.')).toBeInTheDocument();
  });

  it('names the plan when its hard limit is what binds', async () => {
    const atHardLimit = withMembers(
      { ...anOrganization(), limits: { ...anOrganization().limits, configured: { ...anOrganization().limits.configured, users: 12 }, effective: { ...anOrganization().limits.effective, users: 1 }, hard: { ...anOrganization().limits.hard, users: 1 } } },
      [member('ada@acme.example', 'owner')],
    );
    renderMembers({ organization: atHardLimit });
    expect(await screen.findByText('That is the most the Teams plan allows (its hard limit): another plan raises it.')).toBeInTheDocument();
  });

  it('sends E-mail and Role, then reads the organization again at the position the server answered', async () => {
    const view = renderMembers();
    await view.user.type(await screen.findByLabelText('E-mail'), 'bob@acme.example');
    await view.user.selectOptions(roleField(), 'admin');
    await view.user.click(screen.getByRole('button', { name: 'Add member' }));

    const post = await view.write('POST');
    expect(post).toMatchObject({ url: '/organizations/acme/members', body: { email: 'bob@acme.example', role: 'admin', chorusUser: false } });
    view.setOrganization(withMembers(anOrganization({ position: 41 }), [member('ada@acme.example', 'owner'), member('bob@acme.example', 'admin', { invited: true })]));
    post.respond(201, { id: 'acme', revision: 5, position: 41, userId: 'id-bob', invitation: 'pending' });

    await waitFor(() => expect(within(form()).getByRole('status')).toHaveTextContent('bob@acme.example is a member now, as admin.'));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(2));
    expect(view.network.requests.map((request) => request.url)).toContain('/organizations/acme?minPosition=41');
    expect(emailField()).toHaveValue('');
  });

  it('says the member is added only together with the list and the count that hold them, never beside the ones before', async () => {
    const four = withMembers(anOrganization(), full.members.slice(0, 4));
    const state = { session: adaSession([{ id: 'acme', name: 'Acme', role: 'owner' }]), organizations: [four] };
    const answers = consoleServer(state);
    // The read of the write (at its position) is held: the page shows what it has until the test answers it.
    const network = createFakeNetwork({ server: (request) => (request.url.includes('minPosition=') ? undefined : answers(request)) });
    const view = renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/members', network });
    await view.user.type(await screen.findByLabelText('E-mail'), 'eve@acme.example');
    await view.user.click(screen.getByRole('button', { name: 'Add member' }));
    (await network.take('POST')).respond(201, { id: 'acme', revision: 9, position: 70, userId: 'id-eve', invitation: 'pending' });
    const read = await waitFor(() => {
      const held = network.requests.find((request) => request.url === '/organizations/acme?minPosition=70');
      if (held === undefined) throw new Error('the organization is not read again yet');
      return held;
    });

    expect(within(form()).getByRole('status')).toHaveTextContent('');
    expect(screen.getByText('4 of 5 users')).toBeInTheDocument();
    read.respond(200, { ...full, position: 70, revision: 9 });
    await waitFor(() => expect(within(form()).getByRole('status')).toHaveTextContent('eve@acme.example is a member now'));
    expect(screen.getByText('5 of 5 users')).toBeInTheDocument();
    expect(screen.getByText('Users limit reached: 5 of 5')).toBeInTheDocument();
  });

  it.each([
    [refusal({ code: 'LIMIT_EXCEEDED', resource: 'users', limit: 5, count: 5 }), 'Users limit reached: 5 of 5. An Additional user add-on, or another plan, raises it.'],
    [refusal({ code: 'DUPLICATE', field: 'email', value: 'bob@acme.example' }), 'bob@acme.example is already a member.'],
    [refusal({ code: 'NO_PLAN', resource: 'users' }), 'Your organization has no plan yet, so nothing can be added: choose a plan first.'],
    [refusal({ status: 403, code: 'FORBIDDEN', requires: 'owner' }), 'Only an owner can add, remove, promote or demote an owner.'],
    [refusal({ status: 403, code: 'FORBIDDEN', requires: 'owner-or-admin' }), 'Your role does not allow this change: ask an owner or an admin.'],
    [refusal({ status: 400, code: 'VALIDATION_FAILED', detail: 'email: must be an e-mail address' }), 'email: must be an e-mail address'],
  ])('shows %j in words next to the form and keeps what was typed', async (problem, words) => {
    const view = renderMembers();
    await view.user.type(await screen.findByLabelText('E-mail'), 'bob@acme.example');
    await view.user.selectOptions(roleField(), 'auditor');
    await view.user.click(screen.getByRole('button', { name: 'Add member' }));
    (await view.write('POST')).respond(problem.status, problem);

    await waitFor(() => expect(within(form()).getByRole('alert')).toHaveTextContent(words));
    expect(emailField()).toHaveValue('bob@acme.example');
    expect(roleField()).toHaveValue('auditor');
    expect(emailField()).toHaveAccessibleDescription(words);
  });

  it.each([
    ['owner', ['member', 'admin', 'auditor', 'owner']],
    ['admin', ['member', 'admin', 'auditor']],
  ] as const)('offers an %s the roles they may give: %j', async (role, roles) => {
    renderMembers({ role });
    await screen.findByRole('form', { name: 'Add member' });
    expect(within(roleField()).getAllByRole('option').map((option) => (option as HTMLOptionElement).value)).toEqual(roles);
  });
});

describe('changing a role', () => {
  it('sends nothing until "Save role", then the new role; the list follows', async () => {
    const view = renderMembers({ organization: full });
    const role = await screen.findByRole('combobox', { name: 'Role of cem@acme.example' });
    await view.user.selectOptions(role, 'auditor');
    expect(view.network.requests.some((request) => request.method === 'PATCH')).toBe(false);
    await view.user.click(screen.getByRole('button', { name: 'Save role of cem@acme.example' }));
    const patch = await view.network.take('PATCH');
    expect(patch).toMatchObject({ url: '/organizations/acme/members/id-cem', body: { role: 'auditor' } });
    view.setOrganization(withMembers({ ...full, position: 60 }, full.members.map((candidate) => (candidate.email === 'cem@acme.example' ? { ...candidate, role: 'auditor' } : candidate))));
    patch.respond(200, { id: 'acme', revision: 10, position: 60 });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save role of cem@acme.example' })).not.toBeInTheDocument());
    expect(screen.getByRole('combobox', { name: 'Role of cem@acme.example' })).toHaveValue('auditor');
    expect(screen.getByText('cem@acme.example is auditor now.')).toBeInTheDocument();
  });

  it('lets an admin choose no owner, nor change an owner; the last owner’s role is not offered to anyone', async () => {
    renderMembers({ role: 'admin', organization: full });
    const role = await screen.findByRole('combobox', { name: 'Role of cem@acme.example' });
    expect(within(role).getAllByRole('option').map((option) => (option as HTMLOptionElement).value)).toEqual(['member', 'admin', 'auditor']);
    expect(screen.queryByRole('combobox', { name: 'Role of ada@acme.example' })).not.toBeInTheDocument();
  });

  it('shows the refusal in words and puts the role back', async () => {
    const view = renderMembers({ organization: full });
    await view.user.selectOptions(await screen.findByRole('combobox', { name: 'Role of bob@acme.example' }), 'owner');
    await view.user.click(screen.getByRole('button', { name: 'Save role of bob@acme.example' }));
    (await view.network.take('PATCH')).respond(403, refusal({ status: 403, code: 'FORBIDDEN', requires: 'owner' }));
    expect(await screen.findByText('Only an owner can add, remove, promote or demote an owner.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Role of bob@acme.example' })).toHaveValue('admin');
  });
});

describe('removing a member', () => {
  it('asks first; Cancel keeps them, Remove removes them', async () => {
    const view = renderMembers({ organization: full });
    await view.user.click(await screen.findByRole('button', { name: 'Remove cem@acme.example' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove cem@acme.example?' });
    expect(dialog).toHaveTextContent('cem@acme.example loses access to Acme at once.');
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(view.network.requests.some((request) => request.method === 'DELETE')).toBe(false);

    await view.user.click(screen.getByRole('button', { name: 'Remove cem@acme.example' }));
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    const removal = await view.write('DELETE');
    expect(removal.url).toBe('/organizations/acme/members/id-cem');
    view.setOrganization(withMembers({ ...full, position: 50 }, full.members.filter((candidate) => candidate.email !== 'cem@acme.example')));
    removal.respond(200, { id: 'acme', revision: 9, position: 50 });
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(4));
    expect(screen.queryByRole('button', { name: 'Remove cem@acme.example' })).not.toBeInTheDocument();
  });

  it('does not offer to remove the last owner, nor an owner to an admin', async () => {
    renderMembers({ role: 'admin', organization: full });
    await screen.findByRole('list', { name: 'Members' });
    expect(screen.queryByRole('button', { name: 'Remove ada@acme.example' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove bob@acme.example' })).toBeInTheDocument();
  });

  it('shows a refusal in words above the list', async () => {
    const view = renderMembers({ organization: full });
    await view.user.click(await screen.findByRole('button', { name: 'Remove bob@acme.example' }));
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    (await view.write('DELETE')).respond(409, refusal({ code: 'CONCURRENCY_CONFLICT' }));
    expect(await screen.findByText('The organization was changing at the same moment: please try again.')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(5);
  });
});
