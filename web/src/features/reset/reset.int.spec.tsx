import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import { renderWithProviders } from '../../testing/render-with-providers';

const renderReset = (token = 'tok-123') => renderWithProviders(<AppRoutes />, { route: `/reset/${token}` });
const newPassword = () => screen.getByLabelText('New password');
const confirmation = () => screen.getByLabelText('Confirm new password');
const changeButton = () => screen.getByRole('button', { name: 'Change password' });
const alert = () => screen.getByRole('alert');

async function choose(view: ReturnType<typeof renderReset>, password: string, again = password) {
  if (password) await view.user.type(newPassword(), password);
  if (again) await view.user.type(confirmation(), again);
  await view.user.click(changeButton());
}

describe('the reset-password screen', () => {
  it('asks for the new password twice', () => {
    renderReset();
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByText('Enter your new password twice.')).toBeInTheDocument();
    expect(newPassword()).toHaveAttribute('type', 'password');
    expect(newPassword()).toHaveAttribute('autocomplete', 'new-password');
    expect(confirmation()).toHaveAttribute('type', 'password');
    expect(alert()).toBeEmptyDOMElement();
  });

  it('says when the two passwords differ, and sends nothing', async () => {
    const view = renderReset();
    await choose(view, 'correct horse battery', 'correct horse battery!');
    expect(alert()).toHaveTextContent('The two passwords do not match.');
    expect(confirmation()).toHaveAttribute('aria-invalid', 'true');
    expect(view.network.requests).toHaveLength(0);
  });

  it('asks for a password when none was typed', async () => {
    const view = renderReset();
    await choose(view, '');
    expect(alert()).toHaveTextContent('Enter a new password.');
    expect(view.network.requests).toHaveLength(0);
  });

  it('posts the token and the password, is busy, then confirms with a link back to log in', async () => {
    const view = renderReset();
    await choose(view, 'correct horse battery');
    expect(view.network.onlyRequest()).toMatchObject({
      url: '/reset',
      method: 'POST',
      body: { token: 'tok-123', password: 'correct horse battery' },
    });
    expect(changeButton()).toBeDisabled();
    expect(changeButton()).toHaveAttribute('aria-busy', 'true');
    view.network.onlyRequest().respond(204);
    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('sends the token as it appeared in the link, decoded', async () => {
    const view = renderReset('a%2Bb%3D');
    await choose(view, 'correct horse battery');
    expect(view.network.onlyRequest().body).toEqual({ token: 'a+b=', password: 'correct horse battery' });
  });

  it('explains an invalid or expired link and offers a new one', async () => {
    const view = renderReset();
    await choose(view, 'correct horse battery');
    view.network.onlyRequest().respond(400, { type: 'about:blank', title: 'Bad Request', status: 400, code: 'INVALID_TOKEN', detail: 'x' });
    expect(await within(alert()).findByText(/This password reset link is invalid or has expired\./)).toBeInTheDocument();
    expect(within(alert()).getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it("shows the server's detail when it refuses the password, and lets the user try again", async () => {
    const view = renderReset();
    await choose(view, 'password');
    view.network.onlyRequest().respond(400, { code: 'VALIDATION_FAILED', detail: 'This password is too easy to guess.' });
    expect(await within(alert()).findByText('This password is too easy to guess.')).toBeInTheDocument();
    expect(newPassword()).toHaveAttribute('aria-invalid', 'true');
    expect(newPassword()).toHaveValue('password');
    await view.user.type(newPassword(), '-much-longer');
    await view.user.type(confirmation(), '-much-longer');
    await view.user.click(changeButton());
    expect(view.network.requests[1]!.body).toEqual({ token: 'tok-123', password: 'password-much-longer' });
  });

  it.each([
    ['a server error', 500, undefined],
    ['a refusal without a detail', 400, { code: 'VALIDATION_FAILED' }],
    ['an unknown refusal', 429, { code: 'RATE_LIMITED', detail: 'Slow down.' }],
  ])('says the password was not changed on %s', async (_, status, body) => {
    const view = renderReset();
    await choose(view, 'correct horse battery');
    view.network.onlyRequest().respond(status, body);
    expect(await within(alert()).findByText('Your password could not be changed. Please try again.')).toBeInTheDocument();
    expect(changeButton()).toBeEnabled();
  });
});
