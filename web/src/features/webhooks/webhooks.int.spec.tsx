// The Webhooks page from an owner's side (docs/console.md, Webhooks): the endpoints with their events, format, on/off
// and health; adding one (the secret shown once, copied; Splunk's or Datadog's with their token instead); refusals in
// words with nothing typed lost; turning off and on; deleting after a confirmation; a new secret; a test event and its
// outcome; the delivery log; replaying from a position or an instant in a named time zone; and what other roles get.
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
const gone = endpoint('c3', 'https://old.acme.example/hook', {
  enabled: false,
  disabledReason: 'The receiver answered 410 Gone: the endpoint is disabled.',
});
const logs = endpoint('e5', 'https://http-intake.logs.datadoghq.eu/api/v2/logs', { format: 'datadog' });

type State = { endpoints: WebhookEndpoint[]; deliveries: Record<string, WebhookDelivery[]> };

/** Answers the console's reads, the endpoints and their deliveries from `state`; writes are the test's to answer. */
function webhooksServer(state: State, role: Role): FakeServer {
  const reads = consoleServer({
    session: adaSession([{ id: 'acme', name: 'Acme', role }]),
    organizations: [anOrganization()],
  });
  return (request) => {
    if (request.method !== 'GET') return undefined;
    const path = request.url.split('?')[0] ?? '';
    if (path === '/organizations/acme/webhooks') return { status: 200, body: { endpoints: state.endpoints } };
    const log = /^\/organizations\/acme\/webhooks\/([^/]+)\/deliveries$/.exec(path);
    if (log) return { status: 200, body: { deliveries: state.deliveries[log[1] ?? ''] ?? [] } };
    return reads(request);
  };
}

function renderWebhooks({
  role = 'owner' as Role,
  endpoints = [provisioning, billing, gone],
  deliveries = {} as State['deliveries'],
} = {}) {
  const state: State = { endpoints, deliveries };
  const network = createFakeNetwork({ server: webhooksServer(state, role) });
  return { ...renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/webhooks', network }), state };
}

const addForm = () => screen.getByRole('form', { name: 'Add endpoint' });
const list = () => screen.getByRole('list', { name: 'Endpoints' });
const item = (url: string) => within(list()).getByRole('listitem', { name: url });
const listStatus = () =>
  within(screen.getByRole('region', { name: 'Endpoints' })).getAllByRole('status')[0] as HTMLElement;

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
        [billing.id]: [
          delivery({
            outcome: 'failed',
            status: 503,
            attempt: 3,
            reason: 'The receiver answered 503.',
            nextAttemptAt: '2030-03-12T09:41:25.000Z',
          }),
        ],
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhooks' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Webhooks · Acme · Chorus'));
    expect(
      screen.getByText('3 of 10 endpoints. Each gets every event it takes, in the history’s order.'),
    ).toBeInTheDocument();
    const first = await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('listitem', {
      name: provisioning.url,
    });
    expect(first).toHaveTextContent('On');
    expect(first).toHaveTextContent('Provisioning scripts');
    expect(first).toHaveTextContent('Events: All events');
    expect(first).toHaveTextContent('Format: Standard Webhooks (signed JSON)');
    await waitFor(() =>
      expect(first).toHaveTextContent(/Last delivery: member\.added, answered 200 on 12 Mar 2030, 09:41:05\./),
    );
    const second = item(billing.url);
    expect(second).toHaveTextContent('Events: plan.changed, addon.purchased');
    await waitFor(() =>
      expect(second).toHaveTextContent(
        'Failing: member.added, attempt 3 on 12 Mar 2030, 09:41:05. The receiver answered 503. Next attempt on 12 Mar 2030, 09:41:25.',
      ),
    );
    const third = item(gone.url);
    expect(third).toHaveTextContent('Off');
    expect(third).toHaveTextContent('Turned off: The receiver answered 410 Gone: the endpoint is disabled.');
    expect(within(third).getByRole('button', { name: `Turn on ${gone.url}` })).toBeInTheDocument();
  });

  it('says a batching endpoint’s format in words, and offers no new secret for it: its deliveries are not signed', async () => {
    renderWebhooks({
      endpoints: [
        provisioning,
        logs,
        endpoint('f6', 'https://splunk.acme.example:8088/services/collector/event', { format: 'splunk-hec' }),
      ],
    });
    const datadog = await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('listitem', {
      name: logs.url,
    });
    expect(datadog).toHaveTextContent('Format: Datadog logs');
    expect(within(datadog).queryByRole('button', { name: /^New secret/ })).not.toBeInTheDocument();
    expect(within(datadog).getByRole('button', { name: `Send test event to ${logs.url}` })).toBeInTheDocument();
    expect(item('https://splunk.acme.example:8088/services/collector/event')).toHaveTextContent(
      'Format: Splunk HTTP Event Collector',
    );
    expect(
      within(item(provisioning.url)).getByRole('button', { name: `New secret for ${provisioning.url}` }),
    ).toBeInTheDocument();
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

  it.each(['member', 'auditor'] as const)(
    'is not for a %s: the page says who manages it, and asks the server nothing',
    async (role) => {
      const view = renderWebhooks({ role });
      expect(
        await screen.findByText('Owners and admins send Acme’s history to their own systems here; ask one of them.'),
      ).toBeInTheDocument();
      expect(view.network.requests.map((request) => request.url)).not.toContainEqual(
        expect.stringContaining('/webhooks'),
      );
      expect(
        within(screen.getByRole('navigation', { name: 'Acme' })).queryByRole('link', { name: 'Webhooks' }),
      ).not.toBeInTheDocument();
    },
  );

  it('is in the navigation of an admin', async () => {
    renderWebhooks({ role: 'admin' });
    const link = await within(await screen.findByRole('navigation', { name: 'Acme' })).findByRole('link', {
      name: 'Webhooks',
    });
    expect(link).toHaveAttribute('href', '/app/orgs/acme/webhooks');
    expect(link).toHaveAttribute('aria-current', 'page');
  });
});

describe('adding an endpoint', () => {
  it('sends the URL, description, the types chosen in the catalogue’s order and where to start; shows the secret once, to copy', async () => {
    const view = renderWebhooks({ endpoints: [] });
    await view.user.type(
      await within(await screen.findByRole('form', { name: 'Add endpoint' })).findByLabelText('URL'),
      'https://hooks.acme.example/new',
    );
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
      body: {
        url: 'https://hooks.acme.example/new',
        description: 'CRM',
        events: ['member.added', 'site.added'],
        startFrom: 'beginning',
      },
    });
    const added = endpoint('d4', 'https://hooks.acme.example/new', {
      description: 'CRM',
      events: ['member.added', 'site.added'],
    });
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
    expect(
      await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('listitem', { name: added.url }),
    ).toHaveTextContent('Events: member.added, site.added');
    expect(within(addForm()).getByLabelText('URL')).toHaveValue('');

    await view.user.click(within(secret).getByRole('button', { name: 'I have saved it' }));
    expect(screen.queryByText('whsec_c2VjcmV0LXNob3duLW9uY2U=')).not.toBeInTheDocument();
  });

  it('starts from now by default, with every event', async () => {
    const view = renderWebhooks({ endpoints: [] });
    await view.user.type(await screen.findByLabelText('URL'), 'http://hooks.acme.example');
    await view.user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect((await view.network.take('POST')).body).toEqual({
      url: 'http://hooks.acme.example',
      format: 'standard',
      description: '',
      events: ['*'],
      startFrom: 'now',
    });
  });

  it('offers the formats, Standard Webhooks first; a token field only for Splunk and Datadog, named as each product names it', async () => {
    const view = renderWebhooks({ endpoints: [] });
    const format = await within(await screen.findByRole('form', { name: 'Add endpoint' })).findByRole('group', {
      name: 'Format',
    });
    expect(within(format).getAllByRole('radio')).toEqual(
      [/^Standard Webhooks \(signed JSON\)/, /^Splunk HTTP Event Collector/, /^Datadog logs/].map((name) =>
        within(format).getByRole('radio', { name }),
      ),
    );
    expect(within(format).getByRole('radio', { name: /^Standard Webhooks/ })).toBeChecked();
    expect(within(addForm()).queryByLabelText('Splunk HEC token')).not.toBeInTheDocument();
    expect(within(addForm()).queryByLabelText('Datadog API key')).not.toBeInTheDocument();

    await view.user.click(within(format).getByRole('radio', { name: /^Splunk HTTP Event Collector/ }));
    const splunk = within(addForm()).getByLabelText('Splunk HEC token');
    expect(splunk).toHaveAttribute('type', 'password');
    expect(splunk).toBeRequired();
    expect(splunk).toHaveAccessibleDescription(/Chorus keeps it sealed and never shows it again\.$/);
    expect(within(addForm()).getByLabelText('URL')).toHaveAttribute(
      'placeholder',
      'https://splunk.example.com:8088/services/collector/event',
    );

    await view.user.type(splunk, 'hec-token');
    await view.user.click(within(format).getByRole('radio', { name: /^Datadog logs/ }));
    expect(within(addForm()).queryByLabelText('Splunk HEC token')).not.toBeInTheDocument();
    expect(within(addForm()).getByLabelText('Datadog API key')).toHaveAttribute('type', 'password');
    expect(within(addForm()).getByLabelText('Datadog API key')).toHaveAccessibleDescription(
      /sealed and never shows it again/,
    );

    await view.user.click(within(format).getByRole('radio', { name: /^Standard Webhooks/ }));
    expect(within(addForm()).queryByLabelText('Splunk HEC token')).not.toBeInTheDocument();
    expect(within(addForm()).queryByLabelText('Datadog API key')).not.toBeInTheDocument();
  });

  it('sends Datadog’s format with its API key, shows no secret (nothing is signed) and lists it as Datadog logs', async () => {
    const view = renderWebhooks({ endpoints: [] });
    await view.user.click(
      await within(await screen.findByRole('form', { name: 'Add endpoint' })).findByRole('radio', {
        name: /^Datadog logs/,
      }),
    );
    await view.user.type(within(addForm()).getByLabelText('URL'), logs.url);
    await view.user.click(within(addForm()).getByRole('button', { name: 'Add endpoint' }));
    expect(within(addForm()).getByRole('alert')).toHaveTextContent(
      'Enter the Datadog API key that Chorus sends with each batch.',
    );
    expect(within(addForm()).getByLabelText('Datadog API key')).toHaveAttribute('aria-invalid', 'true');
    expect(view.network.requests.filter((request) => request.method === 'POST')).toEqual([]);

    await view.user.type(within(addForm()).getByLabelText('Datadog API key'), ' dd-api-key-0123 ');
    await view.user.click(within(addForm()).getByRole('button', { name: 'Add endpoint' }));
    const post = await view.network.take('POST');
    expect(post.body).toEqual({
      url: logs.url,
      format: 'datadog',
      token: 'dd-api-key-0123',
      description: '',
      events: ['*'],
      startFrom: 'now',
    });
    view.state.endpoints = [logs];
    post.respond(201, { ...logs, secret: 'whsec_bm90LXVzZWQ=' });

    await waitFor(() =>
      expect(within(addForm()).getByRole('status')).toHaveTextContent(
        `${logs.url} is added. Events are sent to it from now on. They go in batches, with the Datadog API key you gave.`,
      ),
    );
    expect(screen.queryByRole('group', { name: /Signing secret/ })).not.toBeInTheDocument();
    expect(screen.queryByText('whsec_bm90LXVzZWQ=')).not.toBeInTheDocument();
    expect(
      await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('listitem', { name: logs.url }),
    ).toHaveTextContent('Format: Datadog logs');
    // Ready for the next one: back to Standard Webhooks, the key gone.
    expect(within(addForm()).getByRole('radio', { name: /^Standard Webhooks/ })).toBeChecked();
    await view.user.click(within(addForm()).getByRole('radio', { name: /^Datadog logs/ }));
    expect(within(addForm()).getByLabelText('Datadog API key')).toHaveValue('');
  });

  it('sends Splunk’s format with its token; a refusal of the token is said in Splunk’s words and keeps it', async () => {
    const view = renderWebhooks({ endpoints: [] });
    await view.user.click(
      await within(await screen.findByRole('form', { name: 'Add endpoint' })).findByRole('radio', {
        name: /^Splunk HTTP Event Collector/,
      }),
    );
    await view.user.type(within(addForm()).getByLabelText('Splunk HEC token'), 'hec-0123');
    await view.user.type(
      within(addForm()).getByLabelText('URL'),
      'https://splunk.acme.example:8088/services/collector/event',
    );
    await view.user.click(within(addForm()).getByRole('button', { name: 'Add endpoint' }));
    const post = await view.network.take('POST');
    expect(post.body).toMatchObject({ format: 'splunk-hec', token: 'hec-0123' });
    post.respond(400, {
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: '',
      errors: [{ pointer: '#/token', detail: 'too long' }],
    });
    await waitFor(() =>
      expect(within(addForm()).getByRole('alert')).toHaveTextContent(
        'Enter the Splunk HEC token that Chorus sends with each batch.',
      ),
    );
    expect(within(addForm()).getByLabelText('Splunk HEC token')).toHaveAttribute('aria-invalid', 'true');
    expect(within(addForm()).getByLabelText('Splunk HEC token')).toHaveValue('hec-0123');
  });

  it('sends no token with Standard Webhooks, even one typed for another format first', async () => {
    const view = renderWebhooks({ endpoints: [] });
    await view.user.click(
      await within(await screen.findByRole('form', { name: 'Add endpoint' })).findByRole('radio', {
        name: /^Datadog logs/,
      }),
    );
    await view.user.type(within(addForm()).getByLabelText('Datadog API key'), 'dd-key');
    await view.user.click(within(addForm()).getByRole('radio', { name: /^Standard Webhooks/ }));
    await view.user.type(within(addForm()).getByLabelText('URL'), 'https://hooks.acme.example/chorus');
    await view.user.click(within(addForm()).getByRole('button', { name: 'Add endpoint' }));
    const body = (await view.network.take('POST')).body as Record<string, unknown>;
    expect(body).toMatchObject({ format: 'standard' });
    expect(body).not.toHaveProperty('token');
  });

  it.each([
    [
      { status: 409, code: 'LIMIT_EXCEEDED', resource: 'webhookEndpoints', limit: 10, count: 10 },
      'This organization has 10 endpoints, the most it can have. Delete one first.',
      null,
    ],
    [
      { status: 400, code: 'VALIDATION_FAILED', errors: [{ pointer: '#/url', detail: 'must be an http(s) URL' }] },
      'Enter the endpoint’s full address, starting with https:// or http://, like https://hooks.example.com/chorus.',
      'URL',
    ],
    [
      {
        status: 400,
        code: 'VALIDATION_FAILED',
        errors: [{ pointer: '#/url', detail: 'must not carry a user name or password' }],
      },
      'Leave the user name and password out of the URL',
      'URL',
    ],
    [
      {
        status: 400,
        code: 'VALIDATION_FAILED',
        errors: [{ pointer: '#/url', detail: '10.0.0.5 is not a public address' }],
      },
      '10.0.0.5 is not a public address: webhooks are sent only to public addresses.',
      'URL',
    ],
    [
      { status: 400, code: 'VALIDATION_FAILED', errors: [{ pointer: '#/description', detail: 'too long' }] },
      'Keep the description to 500 characters.',
      'Description (optional)',
    ],
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
    expect(within(addForm()).getByRole('alert')).toHaveTextContent(
      'Enter the endpoint’s full address, starting with https:// or http://',
    );
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
    await view.user.click(
      await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', {
        name: `Turn off ${provisioning.url}`,
      }),
    );
    const off = await view.network.take('PATCH');
    expect(off).toMatchObject({ url: `/organizations/acme/webhooks/${provisioning.id}`, body: { enabled: false } });
    view.state.endpoints = [{ ...provisioning, enabled: false }, billing, gone];
    off.respond(200, { ...provisioning, enabled: false });
    await waitFor(() =>
      expect(listStatus()).toHaveTextContent(
        `${provisioning.url} is off: nothing is sent to it until it is turned on again.`,
      ),
    );
    expect(item(provisioning.url)).toHaveTextContent('Turned off. Nothing is sent until it is turned on again.');

    await view.user.click(within(list()).getByRole('button', { name: `Turn on ${gone.url}` }));
    const on = await view.network.take('PATCH');
    expect(on.body).toEqual({ enabled: true });
    on.respond(200, { ...gone, enabled: true, disabledReason: null });
    await waitFor(() =>
      expect(listStatus()).toHaveTextContent(`${gone.url} is on again: it goes on from where it stopped.`),
    );
  });

  it('deletes one after asking, and the focus goes to the next endpoint', async () => {
    const view = renderWebhooks();
    await view.user.click(
      await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', {
        name: `Delete ${provisioning.url}`,
      }),
    );
    const dialog = screen.getByRole('dialog', { name: `Delete ${provisioning.url}?` });
    expect(dialog).toHaveTextContent('Nothing more is sent to it, and its secrets are erased.');
    await view.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const deletion = await view.network.take('DELETE');
    expect(deletion.url).toBe(`/organizations/acme/webhooks/${provisioning.id}`);
    view.state.endpoints = [billing, gone];
    deletion.respond(204);
    await waitFor(() =>
      expect(listStatus()).toHaveTextContent(
        `${provisioning.url} is deleted: nothing more is sent to it, and its secrets are erased.`,
      ),
    );
    await waitFor(() => expect(item(billing.url)).toHaveFocus());
  });

  it('makes a new secret after asking, shows it once and says the old one keeps working for 24 hours', async () => {
    const view = renderWebhooks();
    await view.user.click(
      await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', {
        name: `New secret for ${billing.url}`,
      }),
    );
    await view.user.click(
      within(screen.getByRole('dialog', { name: `Make a new secret for ${billing.url}?` })).getByRole('button', {
        name: 'Make a new secret',
      }),
    );
    const rotation = await view.network.take('POST');
    expect(rotation.url).toBe(`/organizations/acme/webhooks/${billing.id}/secret`);
    view.state.endpoints = [provisioning, { ...billing, secretRotatedUntil: '2099-01-02T09:00:00.000Z' }, gone];
    rotation.respond(200, { secret: 'whsec_bmV3LXNlY3JldA==', previousSecretValidUntil: '2099-01-02T09:00:00.000Z' });
    const shown = await screen.findByRole('group', { name: `New signing secret for ${billing.url}` });
    expect(shown).toHaveTextContent('whsec_bmV3LXNlY3JldA==');
    expect(shown).toHaveTextContent('The old secret keeps working for 24 hours, until 2 Jan 2099, 09:00:00');
    await waitFor(() =>
      expect(item(billing.url)).toHaveTextContent('The previous secret signs too until 2 Jan 2099, 09:00:00.'),
    );
  });

  it('says a refusal of any of them in words', async () => {
    const view = renderWebhooks();
    await view.user.click(
      await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', {
        name: `Turn off ${billing.url}`,
      }),
    );
    (await view.network.take('PATCH')).respond(404, {
      status: 404,
      code: 'NOT_FOUND',
      entity: 'webhook',
      detail: 'no such endpoint',
    });
    expect(
      await within(screen.getByRole('region', { name: 'Endpoints' })).findByText(
        /^This endpoint is no longer there: it was deleted\./,
      ),
    ).toBeInTheDocument();
  });
});

describe('a test event', () => {
  it('is sent at once: "Sending…" meanwhile, then "delivered" with the status and the time it took', async () => {
    const view = renderWebhooks();
    const button = await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', {
      name: `Send test event to ${provisioning.url}`,
    });
    await view.user.click(button);
    const test = await view.network.take('POST');
    expect(test.url).toBe(`/organizations/acme/webhooks/${provisioning.id}/test`);
    expect(test.body).toBeUndefined();
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleName('Sending…');
    test.respond(200, { eventId: 'ev1', delivered: true, status: 200, ms: 45, excerpt: 'thanks', reason: '' });
    const status = within(item(provisioning.url)).getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Test event delivered: your endpoint answered 200 in 45 ms.'));
    expect(status).toHaveAttribute('role', 'status');
    expect(button).toBeEnabled();
    expect(button).toHaveAccessibleName(`Send test event to ${provisioning.url}`);
    expect(within(item(billing.url)).getByRole('status')).toBeEmptyDOMElement();
  });

  it('says why it was not delivered, in the server’s sentence, with the start of the answer', async () => {
    const view = renderWebhooks();
    await view.user.click(
      await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', {
        name: `Send test event to ${billing.url}`,
      }),
    );
    (await view.network.take('POST')).respond(200, {
      eventId: 'ev2',
      delivered: false,
      status: 500,
      ms: 12,
      excerpt: 'internal error',
      reason: 'The receiver answered 500.',
    });
    const status = within(item(billing.url)).getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Test event not delivered: The receiver answered 500.'));
    expect(status).toHaveTextContent('Its answer: internal error');

    await view.user.click(within(item(billing.url)).getByRole('button', { name: `Send test event to ${billing.url}` }));
    (await view.network.take('POST')).respond(200, {
      eventId: 'ev3',
      delivered: false,
      status: null,
      ms: 10_000,
      excerpt: '',
      reason: 'No answer: timed out after 10 s.',
    });
    await waitFor(() =>
      expect(status).toHaveTextContent(/^Test event not delivered: No answer: timed out after 10 s\.$/),
    );
  });

  it('says a refusal of the test itself in words', async () => {
    const view = renderWebhooks();
    await view.user.click(
      await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', {
        name: `Send test event to ${billing.url}`,
      }),
    );
    (await view.network.take('POST')).respond(404, {
      status: 404,
      code: 'NOT_FOUND',
      entity: 'webhook',
      detail: 'no such endpoint',
    });
    await waitFor(() =>
      expect(within(item(billing.url)).getByRole('status')).toHaveTextContent(
        'Test event not sent: This endpoint is no longer there',
      ),
    );
  });
});

describe('the delivery log', () => {
  it('shows time, event type, attempt, status or "No answer", duration, why it failed and the answer', async () => {
    const view = renderWebhooks({
      deliveries: {
        [billing.id]: [
          delivery({
            outcome: 'failed',
            status: null,
            attempt: 2,
            ms: 10_000,
            excerpt: '',
            eventType: 'plan.changed',
            reason: 'No answer: timed out after 10 s',
            nextAttemptAt: '2030-03-12T09:41:15.000Z',
          }),
          delivery({
            outcome: 'failed',
            status: 503,
            ms: 12,
            excerpt: 'answered 503',
            eventType: 'plan.changed',
            reason: 'The receiver answered 503.',
          }),
          delivery({ eventType: 'addon.purchased', position: '999', at: '2030-03-12T09:30:00.000Z' }),
        ],
      },
    });
    const toggle = await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', {
      name: `Deliveries to ${billing.url}`,
    });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await view.user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const table = await screen.findByRole('table', { name: `Deliveries to ${billing.url}` });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent?.trim()),
      );
    expect(rows).toEqual([
      [
        '12 Mar 2030, 09:41:05',
        'plan.changed position 1042',
        '2',
        'No answer',
        '10.0 s',
        'No answer: timed out after 10 s',
      ],
      [
        '12 Mar 2030, 09:41:05',
        'plan.changed position 1042',
        '1',
        '503',
        '12 ms',
        'The receiver answered 503. answered 503',
      ],
      ['12 Mar 2030, 09:30:00', 'addon.purchased position 999', '1', '200', '35 ms', 'thanks'],
    ]);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Time', 'Event', 'Attempt', 'Answer', 'Took', 'Details']);
  });
});

describe('replaying', () => {
  const openReplay = async (view: ReturnType<typeof renderWebhooks>) => {
    await view.user.click(
      await within(await screen.findByRole('list', { name: 'Endpoints' })).findByRole('button', {
        name: `Replay from… to ${provisioning.url}`,
      }),
    );
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
    expect(replay).toMatchObject({
      url: `/organizations/acme/webhooks/${provisioning.id}/replay`,
      body: { fromPosition: '1042' },
    });
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
    expect(within(form).getByRole('alert')).toHaveTextContent(
      'Choose a moment in the past: a replay sends again what has already happened.',
    );

    fireEvent.change(when, { target: { value: '2026-11-25T10:00:00' } });
    await view.user.click(within(form).getByRole('button', { name: 'Replay' }));
    const local = await view.network.take('POST');
    expect(local.body).toEqual({ fromTime: '2026-11-25T15:00:00.000Z' });
    local.respond(202, { replayId: 'r2', fromRevision: 5 });
    await waitFor(() =>
      expect(within(form).getByRole('status')).toHaveTextContent(/\(America\/New_York\), revision 5 of the history/),
    );

    await view.user.selectOptions(within(form).getByLabelText('Time zone'), 'UTC');
    await view.user.click(within(form).getByRole('button', { name: 'Replay' }));
    expect((await view.network.take('POST')).body).toEqual({ fromTime: '2026-11-25T10:00:00.000Z' });
  });
});
