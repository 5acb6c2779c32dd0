// The Members page from the user's side: the limit said before anyone types, every refusal in words next
// to the form with nothing typed lost, confirmation before removing, roles offered by role, and the
// list read again at the position the server answered (read your own writes).
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { Problem, Role } from '../../api/contract';
import { defaultPageConfig, type PageConfig } from '../../config/page-config-slice';
import {
  adaSession,
  anOrganization,
  consoleServer,
  member,
  membersPage,
  withMembers,
  type StoredOrganization,
} from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';
import type { UndeliveredInvitation } from './api/members-api';

function renderMembers({
  role = 'owner' as Role,
  organization = anOrganization(),
  undelivered = [] as UndeliveredInvitation[],
  contact = {} as Partial<PageConfig>,
} = {}) {
  const state = {
    session: adaSession([{ id: 'acme', name: 'Acme', role }]),
    organizations: [organization],
    undelivered,
  };
  const network = createFakeNetwork({ server: consoleServer(state) });
  const preloadedState = { pageConfig: { ...defaultPageConfig, ...contact } };
  const view = renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/members', network, preloadedState });
  const write = (method: string) => network.take(method);
  return {
    ...view,
    network,
    state,
    write,
    setOrganization: (next: StoredOrganization) => (state.organizations = [next]),
  };
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
    const rows = within(list)
      .getAllByRole('listitem')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'ada@acme.example (you)Owner',
      expect.stringMatching(/^bob@acme\.example\s*AdminInvited/),
      expect.stringMatching(/^cem@acme\.example\s*Member/),
      expect.stringMatching(/^dee@acme\.example\s*AuditorChorus user/),
      expect.stringMatching(/^eve@acme\.example\s*Member/),
    ]);
    expect(screen.getByRole('progressbar', { name: 'Users' })).toHaveAttribute('aria-valuenow', '5');
  });

  it('reads fifty members at a time, and fifty more on request, with the focus on the first of them', async () => {
    const people = Array.from({ length: 120 }, (_, index) =>
      member(`person-${index + 1}@acme.example`, index === 0 ? 'owner' : 'member'),
    );
    const view = renderMembers({ role: 'member', organization: withMembers(anOrganization(), people) });
    const list = await screen.findByRole('list', { name: 'Members' });
    const rows = () => within(list).queryAllByRole('listitem');
    expect(rows()).toHaveLength(50);
    expect(screen.getByText('Showing 50 of 120 members.')).toHaveAttribute('role', 'status');
    // The organization is read without its members, and they a page at a time.
    const urls = () => view.network.requests.map((request) => request.url.replace('http://localhost', ''));
    expect(urls()).toContain('/organizations/acme?members=none');
    expect(urls().filter((url) => url.startsWith('/organizations/acme/members?'))).toEqual([
      '/organizations/acme/members?limit=50',
    ]);

    await view.user.click(screen.getByRole('button', { name: 'Show more members' }));
    await waitFor(() => expect(rows()).toHaveLength(100));
    expect(rows()[50]).toHaveFocus();
    expect(rows()[50]?.textContent).toMatch(/^person-51@/);
    expect(screen.getByText('Showing 100 of 120 members.')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Show more members' }));
    await waitFor(() => expect(rows()).toHaveLength(120));
    expect(screen.queryByRole('button', { name: 'Show more members' })).not.toBeInTheDocument();
    expect(rows().map((row) => row.textContent?.split('@')[0])).toEqual(
      people.map((person) => person.email.split('@')[0]),
    );
  });

  it('past ten members, finds them by part of an address, asking the server once typing pauses', async () => {
    const people = Array.from({ length: 150 }, (_, index) =>
      member(`person-${index + 1}@acme.example`, index === 0 ? 'owner' : 'member'),
    );
    const view = renderMembers({ role: 'member', organization: withMembers(anOrganization(), people) });
    const list = await screen.findByRole('list', { name: 'Members' });
    const rows = () => within(list).queryAllByRole('listitem');
    const names = () => rows().map((row) => row.textContent?.split('@')[0]);
    const find = screen.getByRole('searchbox', { name: 'Find a member' });
    expect(find).toHaveAccessibleDescription('Type part of an address.');
    await view.user.type(find, 'PERSON-14');
    // person-14 and person-140 to person-149.
    await waitFor(() =>
      expect(names()).toEqual(['person-14', ...Array.from({ length: 10 }, (_, index) => `person-14${index}`)]),
    );
    expect(screen.getByText('11 members match.')).toBeInTheDocument();
    const searches = view.network.requests.filter((request) => request.url.includes('q='));
    expect(searches.length).toBeLessThan('PERSON-14'.length);
    expect(searches.at(-1)?.url).toContain('q=PERSON-14');
    await view.user.type(find, '9@');
    await waitFor(() => expect(names()).toEqual(['person-149']));
    expect(screen.getByText('1 member matches.')).toBeInTheDocument();
    await view.user.clear(find);
    await view.user.type(find, 'nobody');
    await waitFor(() => expect(rows()).toHaveLength(0));
    expect(screen.getByText('No member’s address contains “nobody”.')).toBeInTheDocument();
  });

  it('offers no search to a short list', async () => {
    renderMembers({ role: 'member', organization: full });
    await screen.findByRole('list', { name: 'Members' });
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });

  it('tells owners and admins which invitations could not be delivered, and why', async () => {
    const undelivered: UndeliveredInvitation[] = [
      {
        userId: 'id-bob',
        email: 'bob@acme.example',
        reason: 'mail_server_refused',
        responseCode: 550,
        at: '2030-01-01T09:00:00.000Z',
      },
      { userId: 'id-cem', email: 'cem@acme.example', reason: 'address_refused', at: '2030-01-01T09:00:00.000Z' },
    ];
    renderMembers({ role: 'admin', organization: full, undelivered });
    const list = await screen.findByRole('list', { name: 'Members' });
    const bob =
      'We could not deliver the invitation to bob@acme.example: their mail server refused it (550). Remove them and add the right address.';
    expect(await within(list).findByText(bob)).toBeInTheDocument();
    const cem =
      /^We could not deliver the invitation to cem@acme\.example: this is not an address mail can be sent to\./;
    expect(within(list).getByText(cem)).toBeInTheDocument();
  });

  it('does not ask about undelivered invitations for members and auditors', async () => {
    const undelivered: UndeliveredInvitation[] = [
      { userId: 'id-bob', email: 'bob@acme.example', reason: 'address_refused', at: 'x' },
    ];
    const view = renderMembers({ role: 'member', organization: full, undelivered });
    await screen.findByRole('list', { name: 'Members' });
    expect(view.network.requests.map((request) => request.url)).not.toContainEqual(
      expect.stringContaining('invitation-failures'),
    );
    expect(screen.queryByText(/could not deliver/)).not.toBeInTheDocument();
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
    expect(
      screen.getByText('Each Additional user add-on adds one member, and a larger plan allows more.'),
    ).toBeInTheDocument();
  });

  it('names the plan when its hard limit is what binds', async () => {
    const atHardLimit = withMembers(
      {
        ...anOrganization(),
        limits: {
          ...anOrganization().limits,
          configured: { ...anOrganization().limits.configured, users: 12 },
          effective: { ...anOrganization().limits.effective, users: 1 },
          hard: { ...anOrganization().limits.hard, users: 1 },
        },
      },
      [member('ada@acme.example', 'owner')],
    );
    renderMembers({ organization: atHardLimit });
    expect(
      await screen.findByText(
        'That is the most the Teams plan allows, so an Additional user add-on would not raise it: a larger plan does.',
      ),
    ).toBeInTheDocument();
  });

  it('sends E-mail and Role, then reads the organization again at the position the server answered', async () => {
    const view = renderMembers();
    await view.user.type(await screen.findByLabelText('E-mail'), 'bob@acme.example');
    await view.user.selectOptions(roleField(), 'admin');
    await view.user.click(screen.getByRole('button', { name: 'Add member' }));

    const post = await view.write('POST');
    expect(post).toMatchObject({
      url: '/organizations/acme/members',
      body: { email: 'bob@acme.example', role: 'admin', chorusUser: false },
    });
    view.setOrganization(
      withMembers(anOrganization({ position: 41 }), [
        member('ada@acme.example', 'owner'),
        member('bob@acme.example', 'admin', { invited: true }),
      ]),
    );
    post.respond(201, { id: 'acme', revision: 5, position: 41, userId: 'id-bob', invitation: 'pending' });

    const done = 'bob@acme.example is a member now, as admin. We are e-mailing them to let them know.';
    await waitFor(() => expect(within(form()).getByRole('status')).toHaveTextContent(done));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(2),
    );
    expect(
      view.network.requests.find(
        (request) =>
          request.url === '/organizations/acme?members=none' && request.headers['Chorus-Min-Position'] === '41',
      ),
    ).toBeDefined();
    expect(emailField()).toHaveValue('');
  });

  it('says the member is added only together with the list and the count that hold them, never beside the ones before', async () => {
    const four = withMembers(anOrganization(), full.members.slice(0, 4));
    const state = { session: adaSession([{ id: 'acme', name: 'Acme', role: 'owner' }]), organizations: [four] };
    const answers = consoleServer(state);
    // The read of the write (at its position) is held: the page shows what it has until the test answers it.
    const network = createFakeNetwork({
      server: (request) => (request.headers['Chorus-Min-Position'] === undefined ? answers(request) : undefined),
    });
    const view = renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/members', network });
    await view.user.type(await screen.findByLabelText('E-mail'), 'eve@acme.example');
    await view.user.click(screen.getByRole('button', { name: 'Add member' }));
    (await network.take('POST')).respond(201, {
      id: 'acme',
      revision: 9,
      position: 70,
      userId: 'id-eve',
      invitation: 'pending',
    });
    const held = (url: string) =>
      waitFor(() => {
        const request = network.requests.find(
          (candidate) => candidate.url === url && candidate.headers['Chorus-Min-Position'] === '70',
        );
        if (request === undefined) throw new Error(`${url} is not read again yet`);
        return request;
      });
    const read = await held('/organizations/acme?members=none');
    const page = await held('/organizations/acme/members?limit=50');

    expect(within(form()).getByRole('status')).toHaveTextContent('');
    expect(screen.getByText('4 of 5 users')).toBeInTheDocument();
    const five = { ...withMembers(anOrganization(), full.members), position: 70, revision: 9 };
    const { members: _members, ...answer } = five;
    read.respond(200, answer);
    await waitFor(() => expect(screen.getByText('5 of 5 users')).toBeInTheDocument());
    // The count is there, the list not yet: the sentence waits for both.
    expect(within(form()).getByRole('status')).toHaveTextContent('');
    expect(screen.queryByText('eve@acme.example')).not.toBeInTheDocument();
    page.respond(200, membersPage(five, new URLSearchParams('limit=50')));
    await waitFor(() =>
      expect(within(form()).getByRole('status')).toHaveTextContent('eve@acme.example is a member now'),
    );
    const rows = within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem');
    expect(rows.at(-1)?.textContent).toMatch(/^eve@acme\.example/);
    expect(screen.getByText('Users limit reached: 5 of 5')).toBeInTheDocument();
  });

  it.each([
    [
      refusal({ code: 'LIMIT_EXCEEDED', resource: 'users', limit: 5, count: 5 }),
      'Users limit reached: 5 of 5. Each Additional user add-on adds one member, and a larger plan allows more.',
    ],
    [
      refusal({ code: 'DUPLICATE', field: 'email', value: 'bob@acme.example' }),
      'bob@acme.example is already a member.',
    ],
    [
      refusal({ code: 'NO_PLAN', resource: 'users' }),
      'Your organization has no plan yet, so nothing can be added until one is chosen.',
    ],
    [
      refusal({ status: 403, code: 'FORBIDDEN', requires: 'owner' }),
      'Only an owner can add, remove, promote or demote an owner.',
    ],
    [
      refusal({ status: 403, code: 'FORBIDDEN', requires: 'owner-or-admin' }),
      'Your role does not allow this change: ask an owner or an admin.',
    ],
    [
      refusal({
        status: 400,
        code: 'VALIDATION_FAILED',
        detail: 'email: must be an e-mail address',
        errors: [{ pointer: '#/email', detail: 'must be an e-mail address' }],
      }),
      'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.',
    ],
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

  it.each(['a@x:', 'a,b@x', 'x<y@z>', 'ad\u200ba@acme.example', 'ada@\u202eelpmaxe.com', '"ada"@acme.example'])(
    "refuses %j by the server's own rule, without sending it, and keeps what was typed",
    async (address) => {
      const view = renderMembers();
      await view.user.type(await screen.findByLabelText('E-mail'), address);
      await view.user.click(screen.getByRole('button', { name: 'Add member' }));
      const words =
        'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.';
      await waitFor(() => expect(within(form()).getByRole('alert')).toHaveTextContent(words));
      expect(view.network.requests.some((request) => request.method === 'POST')).toBe(false);
      expect(emailField()).toHaveValue(address);
    },
  );

  it('at the limit, links an owner to UPGRADE_URL, and tells an admin which owners to ask', async () => {
    const view = renderMembers({ organization: full, contact: { upgradeUrl: 'https://billing.example.com/portal' } });
    await screen.findByText('Users limit reached: 5 of 5');
    expect(screen.getByRole('link', { name: 'Change the plan or add-ons' })).toHaveAttribute(
      'href',
      'https://billing.example.com/portal',
    );
    view.unmount();

    renderMembers({ role: 'admin', organization: full, contact: { upgradeUrl: 'https://billing.example.com/portal' } });
    await screen.findByText('Users limit reached: 5 of 5');
    expect(screen.getByText('Ask an owner to raise the limit: ada@acme.example.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change the plan or add-ons' })).not.toBeInTheDocument();
  });

  it.each(['', '   ', 'bob', 'bob@acme'])(
    'says %j is no e-mail address in words, before sending anything',
    async (typed) => {
      const view = renderMembers();
      if (typed !== '') await view.user.type(await screen.findByLabelText('E-mail'), typed);
      await view.user.click(await screen.findByRole('button', { name: 'Add member' }));
      await waitFor(() =>
        expect(within(form()).getByRole('alert')).toHaveTextContent(
          'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.',
        ),
      );
      expect(emailField()).toHaveAccessibleDescription(
        'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.',
      );
      expect(view.network.requests.some((request) => request.method === 'POST')).toBe(false);
    },
  );

  it('offers "Chorus user" only while Chorus runs alongside Classic, and says why it matters', async () => {
    const view = renderMembers();
    await screen.findByRole('form', { name: 'Add member' });
    expect(screen.queryByRole('checkbox', { name: /Chorus user/ })).not.toBeInTheDocument();
    view.unmount();

    renderMembers({ organization: anOrganization({ chorusDetails: { plan: 'teams', parallelUse: true } }) });
    const checkbox = await screen.findByRole('checkbox', { name: /^Chorus user/ });
    expect(checkbox).toHaveAccessibleDescription('Chorus runs alongside Classic here, so it notifies only its users.');
  });

  it.each([
    ['owner', ['member', 'admin', 'auditor', 'owner']],
    ['admin', ['member', 'admin', 'auditor']],
  ] as const)('offers an %s the roles they may give: %j', async (role, roles) => {
    renderMembers({ role });
    await screen.findByRole('form', { name: 'Add member' });
    expect(
      within(roleField())
        .getAllByRole('option')
        .map((option) => (option as HTMLOptionElement).value),
    ).toEqual(roles);
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
    view.setOrganization(
      withMembers(
        { ...full, position: 60 },
        full.members.map((candidate) =>
          candidate.email === 'cem@acme.example' ? { ...candidate, role: 'auditor' } : candidate,
        ),
      ),
    );
    patch.respond(200, { id: 'acme', revision: 10, position: 60 });
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Save role of cem@acme.example' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('combobox', { name: 'Role of cem@acme.example' })).toHaveValue('auditor');
    expect(screen.getByText('cem@acme.example is auditor now.')).toBeInTheDocument();
  });

  it('lets an admin choose no owner, nor change an owner; the last owner’s role is not offered to anyone', async () => {
    renderMembers({ role: 'admin', organization: full });
    const role = await screen.findByRole('combobox', { name: 'Role of cem@acme.example' });
    expect(
      within(role)
        .getAllByRole('option')
        .map((option) => (option as HTMLOptionElement).value),
    ).toEqual(['member', 'admin', 'auditor']);
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

describe('resending an invitation', () => {
  it('offers "Resend invitation" for a pending member, sends it, and says so', async () => {
    const view = renderMembers({ organization: full });
    await view.user.click(await screen.findByRole('button', { name: 'Resend invitation to bob@acme.example' }));
    const post = await view.write('POST');
    expect(post).toMatchObject({ url: '/organizations/acme/members/id-bob/invitation' });
    post.respond(200, { id: 'acme', revision: 9, position: 50 });
    expect(await screen.findByText('A new invitation is on its way to bob@acme.example.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend invitation to cem@acme.example' })).not.toBeInTheDocument();
  });

  it('shows the throttle in words', async () => {
    const view = renderMembers({ organization: full });
    await view.user.click(await screen.findByRole('button', { name: 'Resend invitation to bob@acme.example' }));
    (await view.write('POST')).respond(429, refusal({ status: 429, code: 'RATE_LIMITED' }));
    expect(await screen.findByText('Too many attempts: please wait a few minutes and try again.')).toBeInTheDocument();
  });

  it('is not offered to members and auditors, nor to an admin for an invited owner', async () => {
    const view = renderMembers({ role: 'auditor', organization: full });
    await screen.findByRole('list', { name: 'Members' });
    expect(screen.queryByRole('button', { name: /^Resend invitation/ })).not.toBeInTheDocument();
    view.unmount();

    const invitedOwner = withMembers(anOrganization(), [
      member('ada@acme.example', 'owner'),
      member('olu@acme.example', 'owner', { invited: true }),
    ]);
    renderMembers({ role: 'admin', organization: invitedOwner });
    await screen.findByRole('list', { name: 'Members' });
    expect(screen.queryByRole('button', { name: /^Resend invitation/ })).not.toBeInTheDocument();
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
    view.setOrganization(
      withMembers(
        { ...full, position: 50 },
        full.members.filter((candidate) => candidate.email !== 'cem@acme.example'),
      ),
    );
    removal.respond(200, { id: 'acme', revision: 9, position: 50 });
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(4),
    );
    expect(screen.queryByRole('button', { name: 'Remove cem@acme.example' })).not.toBeInTheDocument();
    const people = screen.getByRole('list', { name: 'Members' }).parentElement as HTMLElement;
    expect(within(people).getByRole('status')).toHaveTextContent('cem@acme.example is removed from Acme.');
    // Not the top of the page: the next member, where the removed one was.
    await waitFor(() => expect(document.activeElement).toHaveTextContent(/^dee@acme\.example/));
    expect(document.activeElement?.tagName).toBe('LI');
  });

  it('after removing the last of the list, puts the focus on the member before it', async () => {
    const view = renderMembers({ organization: full });
    await view.user.click(await screen.findByRole('button', { name: 'Remove eve@acme.example' }));
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    const removal = await view.write('DELETE');
    view.setOrganization(
      withMembers(
        { ...full, position: 50 },
        full.members.filter((candidate) => candidate.email !== 'eve@acme.example'),
      ),
    );
    removal.respond(200, { id: 'acme', revision: 9, position: 50 });
    await waitFor(() => expect(document.activeElement).toHaveTextContent(/^dee@acme\.example/));
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
    expect(
      await screen.findByText('The organization was changing at the same moment: please try again.'),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem')).toHaveLength(5);
  });
});

describe('the two-step card of a long list', () => {
  it('reads fifty members at a time as the members list does, and counts everyone without a second factor', async () => {
    const people = Array.from({ length: 60 }, (_, index) =>
      member(`person-${index + 1}@acme.example`, index === 0 ? 'owner' : 'member'),
    );
    const view = renderMembers({ organization: withMembers(anOrganization(), people) });
    const card = await screen.findByRole('list', { name: 'Who has a second factor' });
    expect(within(card).getAllByRole('listitem')).toHaveLength(50);
    expect(screen.getByText('60 of 60 members have no second factor yet.')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Show more members in two-step sign-in' }));
    await waitFor(() => expect(within(card).getAllByRole('listitem')).toHaveLength(60));
    expect(within(card).getAllByRole('listitem')[50]).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Show more members in two-step sign-in' })).not.toBeInTheDocument();
    expect(
      view.network.requests
        .filter((request) => request.url.includes('/two-step-sign-in'))
        .map((request) => request.url),
    ).toEqual([
      '/organizations/acme/two-step-sign-in?limit=50',
      expect.stringMatching(/two-step-sign-in\?limit=50&after=50$/),
    ]);
  });
});

describe('the two-step card on a server still catching up', () => {
  const notYet = {
    status: 503,
    body: {
      status: 503,
      code: 'NOT_YET_CONSISTENT',
      detail: 'The read model has not reached position 42 yet; retry shortly.',
    },
  };

  /** The members page whose two-step list answers `answers` in turn, and then the list itself. */
  function renderWithTwoStepAnswers(answers: { status: number; body: unknown }[]) {
    const state = { session: adaSession([{ id: 'acme', name: 'Acme', role: 'owner' }]), organizations: [full] };
    const server = consoleServer(state);
    const network = createFakeNetwork({
      server: (request) =>
        request.url.includes('/two-step-sign-in?') && answers.length > 0 ? answers.shift() : server(request),
    });
    return renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/members', network });
  }

  it('asks again a second later, and shows the list once the server has caught up', async () => {
    const view = renderWithTwoStepAnswers([notYet, notYet]);
    const list = await screen.findByRole('list', { name: 'Who has a second factor' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(view.waits).toEqual([1_000, 1_000]);
  });

  it('says the list is not shown yet, not that a change was saved, after three tries', async () => {
    const view = renderWithTwoStepAnswers([notYet, notYet, notYet]);
    expect(
      await screen.findByText(
        'Chorus is still catching up with the latest changes, so this list is not shown yet: reload the page in a moment.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/change is saved/)).not.toBeInTheDocument();
    expect(view.waits).toEqual([1_000, 1_000]);
  });
});
