// The Webhooks page from an owner's side (docs/console.md, Webhooks): the endpoints with their events, on/off and
// health; adding one (the secret shown once, copied); refusals in words with nothing typed lost; turning off and on;
// deleting after a confirmation; a new secret; the delivery log; replaying from a position or an instant in a
// named time zone; and what other roles get.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { Role } from '../../api/contract';
import { adaSession, anOrganization, consoleServer } from '../../testing/console-fixtures';
import { createFakeNetwork, type FakeServer } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';
import type { WebhookDelivery, WebhookEndpoint } from './api/webhooks-api';

const endpoint = (id: string, url: string, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: id.padEnd(24, '0'),
  url,
  events: ['*'],
  format: 'standard',
  description: '',
  enabled: true,
  disabledReason: null,
  createdAt: '2030-03-01T09:00:00.000Z',
  secretRotatedUntil: null,
  ...overrides,
});

const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  outcome: 'delivered',
  eventId: 'e1',
  eventType: 'member.added',
  position: '1042',
  revision: '17',
  attempt: 1,
  status: 200,
  ms: 35,
  excerpt: 'thanks',
  at: '2030-03-12T09:41:05.000Z',
  ...overrides,
});

const provisioning = endpoint('a1', 'https://hooks.acme.example/chorus', { description: 'Provisioning scripts' });
const billing = endpoint('b2', 'https://billing.acme.example/in', { events: ['plan.changed', 'addon.purchased'] });
const gone = endpoint('c3', 'https://old.acme.example/hook', { enabled: false, disabledReason: 'The receiver answered 410 Gone: the endpoint is disabled.' });

type State = { endpoints: WebhookEndpoint[]; deliveries: Record<string, WebhookDelivery[]> };

/** Answers the console's reads, the endpoints and their deliveries from `state`; writes are the test's to answer. */
function webhooksServer(state: State, role: Role): FakeServer {
  const reads = consoleServer({ session: adaSession([{ id: 'acme', name: 'Acme', role }]), organizations: [anOrganization()] });
  return (request) => {
    if (request.method !== 'GET') return undefined;
    const path = request.url.split('?')[0] ?? '';
    if (path === '/organizations/acme/webhooks') return { status: 200, body: { endpoints: state.endpoints } };
    const log = /^\/organizations\/acme\/webhooks\/([^/]+)\/deliveries$/.exec(path);
    if (log) return { status: 200, body: { deliveries: state.deliveries[log[1] ?? ''] ?? [] } };
    return reads(request);
  };
}

function renderWebhooks({ role = 'owner' as Role, endpoints = [provisioning, billing, gone], deliveries = {} as State['deliveries'] } = {}) {
  const state: State = { endpoints, deliveries };
  const network = createFakeNetwork({ server: webhooksServer(state, role) });
  return { ...renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/webhooks', network }), state };
}

const addForm = () => screen.getByRole('form', { name: 'Add endpoint' });
const list = () => screen.getByRole('list', { name: 'Endpoints' });
const item = (url: string) => within(list()).getByRole('listitem', { name: url });
const listStatus = () => within(screen.getByRole('region', { name: 'Endpoints' })).getAllByRole('status')[0] as HTMLElement;

afterEach(() => {
  jest.restoreAllMocks();
});

/** The browser's time zone, as it names it (the test machine's clock stays where it is). */
function browserTimeZone(timeZone: string) {
  const real = Intl.DateTimeFormat.prototype.resolvedOptions;
  jest.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...real.call(this), timeZone };
  });
}

describe('the endpoints', () => {
  it('shows each URL, description, the events it takes or "All events", on or off, and its health', async () => {
    renderWebhooks({
      deliveries: {
        [provisioning.id]: [delivery(), delivery({ eventType: 'site.added', at: '2030-03-12T09:40:00.000Z' })],
        [billing.id]: [delivery({ outcome: 'failed', status: 503, attempt: 3, reason: 'The receiver answered 503.', nextAttemptAt: '2030-03-12T09:41:25.000Z' })],
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhooks' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Webhooks · Acme · Chorus'));
    expect(screen.getByText('3 of 10 endpoints. Each gets every event it takes, in the history’s order.')).toBeInTheDocument();
    const first = await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('listitem', { name: provisioning.url });
    expect(first).toHaveTextContent('On');
    expect(first).toHaveTextContent('Provisioning scripts');
    expect(first).toHaveTextContent('Events: All events');
    await waitFor(() => expect(first).toHaveTextContent(/Last delivery: member\.added, answered 200 on 12 Mar 2030, 09:41:05\./));
    const second = item(billing.url);
    expect(second).toHaveTextContent('Events: plan.changed, addon.purchased');
    await waitFor(() => expect(second).toHaveTextContent('Failing: member.added, attempt 3 on 12 Mar 2030, 09:41:05. The receiver answered 503. Next attempt on 12 Mar 2030, 09:41:25.'));
    const third = item(gone.url);
    expect(third).toHaveTextContent('Off');
    expect(third).toHaveTextContent('Turned off: The receiver answered 410 Gone: the endpoint is disabled.');
    expect(within(third).getByRole('button', { name: `Turn on ${gone.url}` })).toBeInTheDocument();
  });

  it('says "No deliveries yet" for an endpoint nothing was sent to', async () => {
    renderWebhooks({ endpoints: [provisioning] });
    await waitFor(() => expect(item(provisioning.url)).toHaveTextContent('No deliveries yet.'));
  });

  it('says "None yet" with no endpoint', async () => {
    renderWebhooks({ endpoints: [] });
    expect(await screen.findByText('None yet: add one below.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Endpoints' })).not.toBeInTheDocument();
  });

  it.each(['member', 'auditor'] as const)('is not for a %s: the page says who manages it, and asks the server nothing', async (role) => {
    const view = renderWebhooks({ role });
    expect(await screen.findByText('Owners and admins send Acme’s history to their own systems here; ask one of them.')).toBeInTheDocument();
    expect(view.network.requests.map((request) => request.url)).not.toContainEqual(expect.stringContaining('/webhooks'));
    expect(within(screen.getByRole('navigation', { name: 'Acme' })).queryByRole('link', { name: 'Webhooks' })).not.toBeInTheDocument();
  });

  it('is in the navigation of an admin', async () => {
    renderWebhooks({ role: 'admin' });
    const link = await within(await screen.findByRole('navigation', { name: 'Acme' })).findByRole('link', { name: 'Webhooks' });
    expect(link).toHaveAttribute('href', '/app/orgs/acme/webhooks');
    expect(link).toHaveAttribute('aria-current', 'page');
  });
});

describe('adding an endpoint', () => {
  it('sends the URL, description, the types chosen in the catalogue’s order and where to start; shows the secret once, to copy', async () => {
    const view = renderWebhooks({ endpoints: [] });
    await view.user.type(await within(await screen.findByRole('form', { name: 'Add endpoint' })).findByLabelText('URL'), 'https://hooks.acme.example/new');
    await view.user.type(within(addForm()).getByLabelText('Description (optional)'), 'CRM');
    expect(screen.queryByRole('group', { name: 'Event types' })).not.toBeInTheDocument();
    await view.user.click(screen.getByRole('radio', { name: /Only the types I choose/ }));
    await view.user.click(screen.getByRole('checkbox', { name: /Site added/ }));
    await view.user.click(screen.getByRole('checkbox', { name: /^Member added/ }));
    await view.user.click(screen.getByRole('radio', { name: /From the beginning of the history/ }));
    await view.user.click(within(addForm()).getByRole('button', { name: 'Add endpoint' }));

    const post = await view.network.take('POST');
    expect(post).toMatchObject({
      url: '/organizations/acme/webhooks',
      body: { url: 'https://hooks.acme.example/new', description: 'CRM', events: ['member.added', 'site.added'], startFrom: 'beginning' },
    });
    const added = endpoint('d4', 'https://hooks.acme.example/new', { description: 'CRM', events: ['member.added', 'site.added'] });
    view.state.endpoints = [added];
    post.respond(201, { ...added, secret: 'whsec_c2VjcmV0LXNob3duLW9uY2U=' });

    const secret = await screen.findByRole('group', { name: 'Signing secret for https://hooks.acme.example/new' });
    expect(within(secret).getByText('whsec_c2VjcmV0LXNob3duLW9uY2U=')).toBeInTheDocument();
    expect(secret).toHaveTextContent('Shown only now: Chorus cannot show it again.');
    expect(within(secret).getByRole('heading')).toHaveFocus();
    await view.user.click(within(secret).getByRole('button', { name: 'Copy the secret' }));
    expect(await navigator.clipboard.readText()).toBe('whsec_c2VjcmV0LXNob3duLW9uY2U=');
    expect(within(secret).getByRole('status')).toHaveTextContent('Copied.');
    await waitFor(() =>
      expect(within(addForm()).getByRole('status')).toHaveTextContent(
        'https://hooks.acme.example/new is added. Every event of Acme’s history is sent to it, in order, then new ones.',
      ),
    );
    expect(await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('listitem', { name: added.url })).toHaveTextContent(
      'Events: member.added, site.added',
    );
    expect(within(addForm()).getByLabelText('URL')).toHaveValue('');

    await view.user.click(within(secret).getByRole('button', { name: 'I have saved it' }));
    expect(screen.queryByText('whsec_c2VjcmV0LXNob3duLW9uY2U=')).not.toBeInTheDocument();
  });

  it('starts from now by default, with every event', async () => {
    const view = renderWebhooks({ endpoints: [] });
    await view.user.type(await screen.findByLabelText('URL'), 'http://hooks.acme.example');
    await view.user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect((await view.network.take('POST')).body).toEqual({ url: 'http://hooks.acme.example', description: '', events: ['*'], startFrom: 'now' });
  });

  it.each([
    [{ status: 409, code: 'LIMIT_EXCEEDED', resource: 'webhookEndpoints', limit: 10, count: 10 }, 'This organization has 10 endpoints, the most it can have. Delete one first.', null],
    [
      { status: 400, code: 'VALIDATION_FAILED', errors: [{ pointer: '#/url', detail: 'must be an http(s) URL' }] },
      'Enter the endpoint’s full address, starting with https:// or http://, like https://hooks.example.com/chorus.',
      'URL',
    ],
    [
      { status: 400, code: 'VALIDATION_FAILED', errors: [{ pointer: '#/url', detail: 'must not carry a user name or password' }] },
      'Leave the user name and password out of the URL',
      'URL',
    ],
    [
      { status: 400, code: 'VALIDATION_FAILED', errors: [{ pointer: '#/url', detail: '10.0.0.5 is not a public address' }] },
      '10.0.0.5 is not a public address: webhooks are sent only to public addresses.',
      'URL',
    ],
    [{ status: 400, code: 'VALIDATION_FAILED', errors: [{ pointer: '#/description', detail: 'too long' }] }, 'Keep the description to 500 characters.', 'Description (optional)'],
  ])('shows %j in words next to the form, marks its field and keeps what was typed', async (answer, words, field) => {
    const view = renderWebhooks({ endpoints: [] });
    await view.user.type(await screen.findByLabelText('URL'), 'https://hooks.acme.example/x');
    await view.user.type(screen.getByLabelText('Description (optional)'), 'CRM');
    await view.user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    (await view.network.take('POST')).respond(answer.status, { detail: '', ...answer });
    await waitFor(() => expect(within(addForm()).getByRole('alert')).toHaveTextContent(words));
    if (field !== null) expect(within(addForm()).getByLabelText(field)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('URL')).toHaveValue('https://hooks.acme.example/x');
    expect(screen.getByLabelText('Description (optional)')).toHaveValue('CRM');
  });

  it('refuses, before sending, an address that is not http(s) and a choice of no type', async () => {
    const view = renderWebhooks({ endpoints: [] });
    await view.user.type(await screen.findByLabelText('URL'), 'ftp://files.acme.example');
    await view.user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(within(addForm()).getByRole('alert')).toHaveTextContent('Enter the endpoint’s full address, starting with https:// or http://');
    await view.user.clear(screen.getByLabelText('URL'));
    await view.user.type(screen.getByLabelText('URL'), 'https://hooks.acme.example');
    await view.user.click(screen.getByRole('radio', { name: /Only the types I choose/ }));
    await view.user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(within(addForm()).getByRole('alert')).toHaveTextContent('Choose at least one event type, or All events.');
    expect(view.network.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });
});

describe('changing an endpoint', () => {
  it('turns one off and another on, saying what that means', async () => {
    const view = renderWebhooks();
    await view.user.click(await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', { name: `Turn off ${provisioning.url}` }));
    const off = await view.network.take('PATCH');
    expect(off).toMatchObject({ url: `/organizations/acme/webhooks/${provisioning.id}`, body: { enabled: false } });
    view.state.endpoints = [{ ...provisioning, enabled: false }, billing, gone];
    off.respond(200, { ...provisioning, enabled: false });
    await waitFor(() => expect(listStatus()).toHaveTextContent(`${provisioning.url} is off: nothing is sent to it until it is turned on again.`));
    expect(item(provisioning.url)).toHaveTextContent('Turned off. Nothing is sent until it is turned on again.');

    await view.user.click(within(list()).getByRole('button', { name: `Turn on ${gone.url}` }));
    const on = await view.network.take('PATCH');
    expect(on.body).toEqual({ enabled: true });
    on.respond(200, { ...gone, enabled: true, disabledReason: null });
    await waitFor(() => expect(listStatus()).toHaveTextContent(`${gone.url} is on again: it goes on from where it stopped.`));
  });

  it('deletes one after asking, and the focus goes to the next endpoint', async () => {
    const view = renderWebhooks();
    await view.user.click(await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', { name: `Delete ${provisioning.url}` }));
    const dialog = screen.getByRole('dialog', { name: `Delete ${provisioning.url}?` });
    expect(dialog).toHaveTextContent('Nothing more is sent to it, and its secrets are erased.');
    await view.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const deletion = await view.network.take('DELETE');
    expect(deletion.url).toBe(`/organizations/acme/webhooks/${provisioning.id}`);
    view.state.endpoints = [billing, gone];
    deletion.respond(204);
    await waitFor(() => expect(listStatus()).toHaveTextContent(`${provisioning.url} is deleted: nothing more is sent to it, and its secrets are erased.`));
    await waitFor(() => expect(item(billing.url)).toHaveFocus());
  });

  it('makes a new secret after asking, shows it once and says the old one keeps working for 24 hours', async () => {
    const view = renderWebhooks();
    await view.user.click(await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', { name: `New secret for ${billing.url}` }));
    await view.user.click(within(screen.getByRole('dialog', { name: `Make a new secret for ${billing.url}?` })).getByRole('button', { name: 'Make a new secret' }));
    const rotation = await view.network.take('POST');
    expect(rotation.url).toBe(`/organizations/acme/webhooks/${billing.id}/secret`);
    view.state.endpoints = [provisioning, { ...billing, secretRotatedUntil: '2099-01-02T09:00:00.000Z' }, gone];
    rotation.respond(200, { secret: 'whsec_bmV3LXNlY3JldA==', previousSecretValidUntil: '2099-01-02T09:00:00.000Z' });
    const shown = await screen.findByRole('group', { name: `New signing secret for ${billing.url}` });
    expect(shown).toHaveTextContent('whsec_bmV3LXNlY3JldA==');
    expect(shown).toHaveTextContent('The old secret keeps working for 24 hours, until 2 Jan 2099, 09:00:00');
    await waitFor(() => expect(item(billing.url)).toHaveTextContent('The previous secret signs too until 2 Jan 2099, 09:00:00.'));
  });

  it('says a refusal of any of them in words', async () => {
    const view = renderWebhooks();
    await view.user.click(await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', { name: `Turn off ${billing.url}` }));
    (await view.network.take('PATCH')).respond(404, { status: 404, code: 'NOT_FOUND', entity: 'webhook', detail: 'no such endpoint' });
    expect(await within(screen.getByRole('region', { name: 'Endpoints' })).findByText(/^This endpoint is no longer there: it was deleted\./)).toBeInTheDocument();
  });
});

describe('the delivery log', () => {
  it('shows time, event type, attempt, status or "No answer", duration, why it failed and the answer', async () => {
    const view = renderWebhooks({
      deliveries: {
        [billing.id]: [
          delivery({ outcome: 'failed', status: null, attempt: 2, ms: 10_000, excerpt: '', eventType: 'plan.changed', reason: 'No answer: timed out after 10 s', nextAttemptAt: '2030-03-12T09:41:15.000Z' }),
          delivery({ outcome: 'failed', status: 503, ms: 12, excerpt: 'answered 503', eventType: 'plan.changed', reason: 'The receiver answered 503.' }),
          delivery({ eventType: 'addon.purchased', position: '999', at: '2030-03-12T09:30:00.000Z' }),
        ],
      },
    });
    const toggle = await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', { name: `Deliveries to ${billing.url}` });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await view.user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const table = await screen.findByRole('table', { name: `Deliveries to ${billing.url}` });
    const rows = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent?.trim()));
    expect(rows).toEqual([
      ['12 Mar 2030, 09:41:05', 'plan.changed position 1042', '2', 'No answer', '10.0 s', 'No answer: timed out after 10 s'],
      ['12 Mar 2030, 09:41:05', 'plan.changed position 1042', '1', '503', '12 ms', 'The receiver answered 503. answered 503'],
      ['12 Mar 2030, 09:30:00', 'addon.purchased position 999', '1', '200', '35 ms', 'thanks'],
    ]);
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Time', 'Event', 'Attempt', 'Answer', 'Took', 'Details']);
  });
});

describe('replaying', () => {
  const openReplay = async (view: ReturnType<typeof renderWebhooks>) => {
    await view.user.click(await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', { name: `Replay from… to ${provisioning.url}` }));
    return screen.getByRole('form', { name: `Replay to ${provisioning.url}` });
  };

  it('from a position: sends it, and says from which revision everything is sent again', async () => {
    const view = renderWebhooks();
    const form = await openReplay(view);
    await view.user.type(within(form).getByLabelText('Position'), 'abc');
    await view.user.click(within(form).getByRole('button', { name: 'Replay' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Enter a position: a whole number, like 1042.');
    expect(within(form).getByLabelText('Position')).toHaveAttribute('aria-invalid', 'true');
    await view.user.clear(within(form).getByLabelText('Position'));
    await view.user.type(within(form).getByLabelText('Position'), '1042');
    await view.user.click(within(form).getByRole('button', { name: 'Replay' }));
    const replay = await view.network.take('POST');
    expect(replay).toMatchObject({ url: `/organizations/acme/webhooks/${provisioning.id}/replay`, body: { fromPosition: '1042' } });
    replay.respond(202, { replayId: 'r1', fromRevision: 17 });
    await waitFor(() =>
      expect(within(form).getByRole('status')).toHaveTextContent(
        `Replaying from position 1042, revision 17 of the history: every event from there is sent again to ${provisioning.url}, in order, then new ones.`,
      ),
    );
  });

  it('from a date and time in the time zone chosen, named; a moment not reached yet is refused before asking', async () => {
    browserTimeZone('America/New_York');
    const view = renderWebhooks();
    const form = await openReplay(view);
    await view.user.click(within(form).getByRole('radio', { name: 'A date and time' }));
    const when = within(form).getByLabelText('Date and time');
    expect(when).toHaveAccessibleDescription('Read in the time zone you choose (yours is America/New_York).');
    expect(within(form).getByLabelText('Time zone')).toHaveDisplayValue('Your time zone (America/New_York)');

    fireEvent.change(when, { target: { value: '2099-01-01T00:00:00' } });
    await view.user.click(within(form).getByRole('button', { name: 'Replay' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Choose a moment in the past: a replay sends again what has already happened.');

    fireEvent.change(when, { target: { value: '2026-11-25T10:00:00' } });
    await view.user.click(within(form).getByRole('button', { name: 'Replay' }));
    const local = await view.network.take('POST');
    expect(local.body).toEqual({ fromTime: '2026-11-25T15:00:00.000Z' });
    local.respond(202, { replayId: 'r2', fromRevision: 5 });
    await waitFor(() => expect(within(form).getByRole('status')).toHaveTextContent(/\(America\/New_York\), revision 5 of the history/));

    await view.user.selectOptions(within(form).getByLabelText('Time zone'), 'UTC');
    await view.user.click(within(form).getByRole('button', { name: 'Replay' }));
    expect((await view.network.take('POST')).body).toEqual({ fromTime: '2026-11-25T10:00:00.000Z' });
  });
});
