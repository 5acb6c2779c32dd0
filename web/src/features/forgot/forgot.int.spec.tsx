import { describe, expect, it } from '@jest/globals';
import { act, screen, waitFor } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import { renderWithProviders } from '../../testing/render-with-providers';
import { sendResetLink } from './forgot-slice';

const PROMPT = "Enter your email address and we'll send you a link to reset your password.";
const SENT = 'Password reset link has been sent to your email.';

const renderForgot = () => renderWithProviders(<AppRoutes />, { route: '/forgot' });
const emailField = () => screen.getByPlaceholderText('your e-mail address');
const sendButton = () => screen.getByRole('button', { name: 'Send' });

describe('the forgot-password screen', () => {
  it("shows the seed's texts", () => {
    renderForgot();
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeInTheDocument();
    expect(screen.getByText(PROMPT)).toBeInTheDocument();
    expect(emailField()).toHaveAccessibleName('E-mail address');
    expect(sendButton()).toBeDisabled();
  });

  it.each([
    ['a@b', false],
    ['abc.', false],
    ['a@.', false],
    ['a@b.', true],
    ['ada@example.com', true],
  ])('with %j, Send is enabled: %s', async (email, enabled) => {
    const view = renderForgot();
    await view.user.type(emailField(), email);
    if (enabled) expect(sendButton()).toBeEnabled();
    else expect(sendButton()).toBeDisabled();
  });

  it('does nothing, and says nothing, when an invalid address is submitted with Enter', async () => {
    const view = renderForgot();
    await view.user.type(emailField(), 'ada@example{Enter}');
    expect(view.network.requests).toHaveLength(0);
    expect(screen.getByText(PROMPT)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('does nothing when the disabled button is clicked', async () => {
    const view = renderForgot();
    await view.user.type(emailField(), 'ada');
    await view.user.click(sendButton());
    expect(view.network.requests).toHaveLength(0);
  });

  it('refuses an invalid address even when asked directly', async () => {
    const view = renderForgot();
    await view.store.dispatch(sendResetLink('nope'));
    expect(view.network.requests).toHaveLength(0);
    expect(view.store.getState().forgot.status).toBe('entering');
  });

  it('posts the address, is busy while the request runs, then hides the form and says it is sent', async () => {
    const view = renderForgot();
    await view.user.type(emailField(), 'ada@example.com');
    await view.user.click(sendButton());
    expect(view.network.onlyRequest()).toMatchObject({
      url: '/forgot',
      method: 'POST',
      body: { email: 'ada@example.com' },
    });
    expect(sendButton()).toBeDisabled();
    expect(sendButton()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText(PROMPT)).toBeInTheDocument();

    view.network.onlyRequest().respond(202);
    expect(await screen.findByText(SENT)).toBeInTheDocument();
    expect(screen.queryByText(PROMPT)).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it('submits with Enter and sends the address without surrounding spaces', async () => {
    const view = renderForgot();
    await view.user.type(emailField(), '  ada@example.com {Enter}');
    expect(view.network.onlyRequest().body).toEqual({ email: 'ada@example.com' });
  });

  it.each([
    ['a server error', (request: { respond: (status: number) => void }) => request.respond(500)],
    ['a refusal', (request: { respond: (status: number) => void }) => request.respond(429)],
    ['a network failure', (request: { failNetwork: () => void }) => request.failNetwork()],
  ])('ignores %s: the user sees the same text', async (_, fail) => {
    const view = renderForgot();
    await view.user.type(emailField(), 'ada@example.com{Enter}');
    fail(view.network.onlyRequest());
    expect(await screen.findByText(SENT)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('cannot be submitted again, neither while busy nor once sent', async () => {
    const view = renderForgot();
    await view.user.type(emailField(), 'ada@example.com{Enter}');
    await view.user.type(emailField(), '{Enter}');
    expect(view.network.requests).toHaveLength(1);
    view.network.onlyRequest().respond(202);
    await screen.findByText(SENT);
    await view.store.dispatch(sendResetLink('ada@example.com'));
    expect(view.network.requests).toHaveLength(1);
  });

  it('leads back to the login screen, before and after sending', async () => {
    const view = renderForgot();
    await view.user.click(screen.getByRole('link', { name: 'Back to log in' }));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome back to Chorus,');

    await view.user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    await view.user.type(emailField(), 'ada@example.com{Enter}');
    act(() => view.network.onlyRequest().respond(202));
    await screen.findByText(SENT);
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login');
    expect(view.navigate).not.toHaveBeenCalled();
  });

  it('announces the new sub-heading', async () => {
    const view = renderForgot();
    const subheading = screen.getByText(PROMPT);
    expect(subheading).toHaveAttribute('aria-live', 'polite');
    await view.user.type(emailField(), 'ada@example.com{Enter}');
    view.network.onlyRequest().respond(202);
    await waitFor(() => expect(subheading).toHaveTextContent(SENT));
  });
});
