// The Account page from the user's side (docs/console.md, Account): e-mail and username, "Change password"
// (current, new twice), and the sessions with their browser, "this browser", and signing them out.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { AccountSession } from '../../api/contract';
import { adaSession, anOrganization, consoleServer } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const session = (
  id: string,
  userAgent: string | null,
  current: boolean,
  method: AccountSession['method'] = 'password',
): AccountSession => ({
  id,
  method,
  startedAt: '2030-03-12T09:41:00.000Z',
  lastActiveAt: '2030-03-12T10:05:00.000Z',
  expiresAt: '2030-03-12T21:41:00.000Z',
  userAgent,
  current,
});

function renderAccount(sessions: AccountSession[]) {
  const state = { sessions };
  const reads = consoleServer({ session: adaSession(), organizations: [anOrganization()] });
  const network = createFakeNetwork({
    server: (request) =>
      request.method === 'GET' && request.url === '/sessions'
        ? { status: 200, body: { sessions: state.sessions } }
        : reads(request),
  });
  const view = renderWithProviders(<AppRoutes />, { route: '/app/account', network });
  const write = (method: string) => network.take(method);
  return { ...view, state, write };
}

const passwordForm = () => screen.getByRole('form', { name: 'Change password' });

describe('the account page', () => {
  it('shows the e-mail and username', async () => {
    renderAccount([session('s1', firefox, true)]);
    const you = await screen.findByRole('region', { name: 'You' });
    expect(within(you).getByText('E-mail').nextElementSibling).toHaveTextContent('ada@acme.example');
    expect(within(you).getByText('Username').nextElementSibling).toHaveTextContent('None');
  });
});

describe('changing the password', () => {
  async function fill(view: ReturnType<typeof renderAccount>, current: string, next: string, again: string) {
    await screen.findByRole('form', { name: 'Change password' });
    await view.user.type(within(passwordForm()).getByLabelText('Current password'), current);
    await view.user.type(within(passwordForm()).getByLabelText('New password'), next);
    await view.user.type(within(passwordForm()).getByLabelText('Confirm new password'), again);
    await view.user.click(within(passwordForm()).getByRole('button', { name: 'Change password' }));
  }

  it('checks that the new one was typed the same twice before sending anything', async () => {
    const view = renderAccount([session('s1', firefox, true)]);
    await fill(view, 'old passphrase', 'new passphrase', 'new passphrasE');
    expect(within(passwordForm()).getByRole('alert')).toHaveTextContent('The two new passwords do not match.');
    expect(within(passwordForm()).getByLabelText('Confirm new password')).toHaveAttribute('aria-invalid', 'true');
    expect(view.network.requests.some((request) => request.url === '/account/password')).toBe(false);
  });

  it("sends the current and the new one; shows the server's refusal in words and keeps the fields", async () => {
    const view = renderAccount([session('s1', firefox, true)]);
    await fill(view, 'not it', 'new passphrase', 'new passphrase');
    const post = await view.write('POST');
    expect(post).toMatchObject({
      url: '/account/password',
      body: { currentPassword: 'not it', newPassword: 'new passphrase' },
    });
    post.respond(400, { status: 400, code: 'WRONG_PASSWORD', detail: 'The current password is not correct.' });
    await waitFor(() =>
      expect(within(passwordForm()).getByRole('alert')).toHaveTextContent('The current password is not correct.'),
    );
    expect(within(passwordForm()).getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(within(passwordForm()).getByLabelText('New password')).toHaveValue('new passphrase');
  });

  it('says the password changed and every other session was signed out, then lists the sessions again', async () => {
    const view = renderAccount([session('s1', firefox, true), session('s2', iphone, false)]);
    await within(await screen.findByRole('list', { name: 'Sessions' })).findByText('Safari on iPhone');
    await fill(view, 'old passphrase', 'new passphrase', 'new passphrase');
    view.state.sessions = [session('s1', firefox, true)];
    (await view.write('POST')).respond(204);
    await waitFor(() =>
      expect(within(passwordForm()).getByRole('status')).toHaveTextContent(
        'Your password has been changed. Every other session has been signed out.',
      ),
    );
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Sessions' })).getAllByRole('listitem')).toHaveLength(1),
    );
    expect(within(passwordForm()).getByLabelText('Current password')).toHaveValue('');
  });
});

describe('the sessions', () => {
  it('name the browser and system, the sign-in method, when started and last active, and this browser', async () => {
    renderAccount([
      session('s1', firefox, true),
      session('s2', iphone, false, 'google'),
      session('s3', null, false, 'invitation'),
    ]);
    const list = await screen.findByRole('list', { name: 'Sessions' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent(/^Firefox on LinuxThis browserPassword · started .+ · last active .+$/);
    expect(rows[1]).toHaveTextContent(/^Safari on iPhoneGoogle · started/);
    expect(rows[2]).toHaveTextContent(/^Unknown browserInvitation · started/);
    expect(within(rows[0] as HTMLElement).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getAllByRole('time')[0]).toHaveAttribute(
      'dateTime',
      '2030-03-12T09:41:00.000Z',
    );
  });

  it('signs one other session out', async () => {
    const view = renderAccount([session('s1', firefox, true), session('s2', iphone, false)]);
    await view.user.click(await screen.findByRole('button', { name: /^Sign out Safari on iPhone/ }));
    const removal = await view.write('DELETE');
    expect(removal.url).toBe('/sessions/s2');
    view.state.sessions = [session('s1', firefox, true)];
    removal.respond(204);
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Sessions' })).getAllByRole('listitem')).toHaveLength(1),
    );
    expect(screen.getByText('You are signed in with this browser only.')).toBeInTheDocument();
  });

  it('signs out everywhere else at once', async () => {
    const view = renderAccount([
      session('s1', firefox, true),
      session('s2', iphone, false),
      session('s3', firefox, false),
    ]);
    await view.user.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    const removal = await view.write('DELETE');
    expect(removal.url).toBe('/sessions');
    view.state.sessions = [session('s1', firefox, true)];
    removal.respond(204);
    await waitFor(() =>
      expect(
        screen.getAllByRole('status').some((status) => status.textContent === 'Every other session is signed out.'),
      ).toBe(true),
    );
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Sessions' })).getAllByRole('listitem')).toHaveLength(1),
    );
  });
});
