import { describe, expect, it } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { RecordedRequest } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

const INVALID = 'This password reset link is invalid or has expired.';

const renderReset = (token = 'tok-123') => renderWithProviders(<AppRoutes />, { route: `/reset/${token}` });
const newPassword = () => screen.getByLabelText('New password');
const confirmation = () => screen.getByLabelText('Confirm new password');
const changeButton = () => screen.getByRole('button', { name: 'Change password' });
const alert = () => screen.getByRole('alert');

/** The page opened at a link the server says still works: the form is shown. */
async function openValidLink(token = 'tok-123') {
  const view = renderReset(token);
  act(() => view.network.onlyRequest().respond(200, { valid: true }));
  await screen.findByLabelText('New password');
  return view;
}

/** The request sent after the link's check: the new password. */
const passwordRequest = (view: ReturnType<typeof renderReset>): RecordedRequest => {
  expect(view.network.requests).toHaveLength(2);
  return view.network.requests[1]!;
};

async function choose(view: ReturnType<typeof renderReset>, password: string, again = password) {
  if (password) await view.user.type(newPassword(), password);
  if (again) await view.user.type(confirmation(), again);
  await view.user.click(changeButton());
}

describe('the reset-password screen, when it opens', () => {
  it('asks the server whether the link still works, showing no form until it knows', () => {
    const view = renderReset();
    expect(view.network.onlyRequest()).toMatchObject({
      url: '/reset/validity',
      method: 'POST',
      body: { token: 'tok-123' },
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.queryByText(INVALID)).not.toBeInTheDocument();
  });

  it('shows the form for a link that works', async () => {
    await openValidLink();
    expect(screen.getByText('Enter your new password twice.')).toBeInTheDocument();
    expect(newPassword()).toHaveAttribute('type', 'password');
    expect(newPassword()).toHaveAttribute('autocomplete', 'new-password');
    expect(confirmation()).toHaveAttribute('type', 'password');
    expect(alert()).toBeEmptyDOMElement();
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login');
  });

  it('says at once when the link is invalid, used or expired, and offers a new one instead of the form', async () => {
    const view = renderReset();
    act(() => view.network.onlyRequest().respond(200, { valid: false }));
    expect(await screen.findByText(INVALID)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot');
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change password' })).not.toBeInTheDocument();
  });

  it.each([
    ['a server error', (request: RecordedRequest) => request.respond(500)],
    ['a refusal', (request: RecordedRequest) => request.respond(429, { code: 'RATE_LIMITED' })],
    ['an answer that does not say', (request: RecordedRequest) => request.respond(200, '<html>')],
    ['a network failure', (request: RecordedRequest) => request.failNetwork()],
  ])('shows the form after %s: the submit will tell', async (_, answer) => {
    const view = renderReset();
    act(() => answer(view.network.onlyRequest()));
    expect(await screen.findByLabelText('New password')).toBeInTheDocument();
    expect(screen.queryByText(INVALID)).not.toBeInTheDocument();
  });

  it('asks only once, even when the page is shown again', async () => {
    const view = await openValidLink();
    view.unmount();
    renderWithProviders(<AppRoutes />, {
      route: '/reset/tok-123',
      preloadedState: { reset: view.store.getState().reset },
      network: view.network,
    });
    expect(view.network.requests).toHaveLength(1);
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
  });
});

describe('the reset-password form', () => {
  it('says when the two passwords differ, and sends nothing', async () => {
    const view = await openValidLink();
    await choose(view, 'correct horse battery', 'correct horse battery!');
    expect(alert()).toHaveTextContent('The two passwords do not match.');
    expect(confirmation()).toHaveAttribute('aria-invalid', 'true');
    expect(view.network.requests).toHaveLength(1);
  });

  it('asks for a password when none was typed', async () => {
    const view = await openValidLink();
    await choose(view, '');
    expect(alert()).toHaveTextContent('Enter a new password.');
    expect(view.network.requests).toHaveLength(1);
  });

  it('posts the token and the password, is busy, then confirms with a link back to log in that has the focus', async () => {
    const view = await openValidLink();
    await choose(view, 'correct horse battery');
    expect(passwordRequest(view)).toMatchObject({
      url: '/reset',
      method: 'POST',
      body: { token: 'tok-123', password: 'correct horse battery' },
    });
    expect(changeButton()).toBeDisabled();
    expect(changeButton()).toHaveAttribute('aria-busy', 'true');
    act(() => passwordRequest(view).respond(204));
    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveFocus();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('sends the token as it appeared in the link, decoded', async () => {
    const view = renderReset('a%2Bb%3D');
    expect(view.network.onlyRequest().body).toEqual({ token: 'a+b=' });
    act(() => view.network.onlyRequest().respond(200, { valid: true }));
    await screen.findByLabelText('New password');
    await choose(view, 'correct horse battery');
    expect(passwordRequest(view).body).toEqual({ token: 'a+b=', password: 'correct horse battery' });
  });

  it('explains a link that stopped working meanwhile, offers a new one and gives it the focus', async () => {
    const view = await openValidLink();
    await choose(view, 'correct horse battery');
    act(() =>
      passwordRequest(view).respond(400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        code: 'INVALID_TOKEN',
        detail: 'x',
      }),
    );
    expect(await screen.findByText(INVALID)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveFocus());
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it("shows the server's detail when it refuses the password, and lets the user try again", async () => {
    const view = await openValidLink();
    await choose(view, 'password');
    act(() =>
      passwordRequest(view).respond(400, { code: 'VALIDATION_FAILED', detail: 'This password is too easy to guess.' }),
    );
    expect(await within(alert()).findByText('This password is too easy to guess.')).toBeInTheDocument();
    expect(newPassword()).toHaveAttribute('aria-invalid', 'true');
    expect(newPassword()).toHaveValue('password');
    await view.user.type(newPassword(), '-much-longer');
    await view.user.type(confirmation(), '-much-longer');
    await view.user.click(changeButton());
    expect(view.network.requests[2]!.body).toEqual({ token: 'tok-123', password: 'password-much-longer' });
  });

  it.each([
    ['a server error', 500, undefined],
    ['a refusal without a detail', 400, { code: 'VALIDATION_FAILED' }],
    ['an unknown refusal', 429, { code: 'RATE_LIMITED', detail: 'Slow down.' }],
  ])('says the password was not changed on %s', async (_, status, body) => {
    const view = await openValidLink();
    await choose(view, 'correct horse battery');
    act(() => passwordRequest(view).respond(status, body));
    expect(
      await within(alert()).findByText('Your password could not be changed. Please try again.'),
    ).toBeInTheDocument();
    expect(changeButton()).toBeEnabled();
  });
});
