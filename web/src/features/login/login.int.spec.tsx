import { describe, expect, it } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import { defaultPageConfig } from '../../config/page-config-slice';
import { renderWithProviders } from '../../testing/render-with-providers';
import { submitLogin } from './login-slice';

const renderLogin = (route = '/login', productName = 'Chorus') =>
  renderWithProviders(<AppRoutes />, { route, preloadedState: { pageConfig: { ...defaultPageConfig, productName } } });

const usernameField = () => screen.getByPlaceholderText('e-mail or username');
const passwordField = () => screen.getByLabelText('Password');
const logInButton = () => screen.getByRole('button', { name: 'Log in' });
const alert = () => screen.getByRole('alert');

async function logIn(view: ReturnType<typeof renderLogin>, username = 'ada', password = 'secret') {
  await view.user.type(usernameField(), username);
  await view.user.type(passwordField(), password);
  await view.user.click(logInButton());
}

describe('the login screen', () => {
  it("shows the seed's texts in order", () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back to Chorus,' })).toBeInTheDocument();
    expect(screen.getByText('enter your details to log in!')).toBeInTheDocument();
    expect(usernameField()).toHaveAttribute('type', 'email');
    expect(passwordField()).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot');
    expect(logInButton()).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled();
    const divider = screen.getByText('- or -');
    expect(divider.textContent).toBe('- or - ');
    const texts = [
      'Welcome back to',
      'enter your details',
      'Forgot your password?',
      'Log in',
      '- or - ',
      'Sign in with Google',
    ];
    const page = document.body.textContent ?? '';
    expect(texts.map((text) => page.indexOf(text))).toEqual(
      [...texts.map((text) => page.indexOf(text))].sort((a, b) => a - b),
    );
  });

  it('names the product from the page config', () => {
    renderLogin('/', 'Acme Voice');
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back to Acme Voice,' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Acme Voice' })).toHaveAttribute('href', '/');
  });

  it('labels both fields and keeps the error region in the page before any error', () => {
    renderLogin();
    expect(screen.getByLabelText('E-mail or username')).toBe(usernameField());
    expect(alert()).toBeEmptyDOMElement();
  });

  it('accepts any text as the username: the form does no validation of its own', async () => {
    const view = renderLogin();
    expect(usernameField().closest('form')).toHaveAttribute('novalidate');
    await logIn(view, 'not an e-mail');
    expect(view.network.onlyRequest().body).toEqual({ username: 'not an e-mail', password: 'secret' });
  });

  it('posts the credentials as JSON, with the XSRF header, and is busy until the answer', async () => {
    const view = renderLogin();
    await logIn(view);
    const request = view.network.onlyRequest();
    expect(request).toMatchObject({ url: '/login', method: 'POST', body: { username: 'ada', password: 'secret' } });
    expect(logInButton()).toBeDisabled();
    expect(logInButton()).toHaveAttribute('aria-busy', 'true');
    expect(logInButton().querySelector('.spinner')).not.toBeNull();
    expect(view.navigate).not.toHaveBeenCalled();
  });

  it('disables the fields and Sign in with Google while logging in, keeping what was typed, until a refusal', async () => {
    const view = renderLogin();
    await logIn(view, 'ada', 'secret');
    const google = screen.getByRole('button', { name: 'Sign in with Google' });
    for (const control of [usernameField(), passwordField(), google]) expect(control).toBeDisabled();
    expect(usernameField()).toHaveValue('ada');
    expect(passwordField()).toHaveValue('secret');

    act(() => view.network.onlyRequest().respond(401));
    await within(alert()).findByText('Incorrect username or password.');
    for (const control of [usernameField(), passwordField(), google, logInButton()]) expect(control).toBeEnabled();
  });

  it('keeps them disabled while the page leaves after a success', async () => {
    const view = renderLogin();
    await logIn(view);
    act(() => view.network.onlyRequest().respond(204));
    await waitFor(() => expect(view.navigate).toHaveBeenCalledWith('/'));
    for (const control of [
      usernameField(),
      passwordField(),
      screen.getByRole('button', { name: 'Sign in with Google' }),
    ])
      expect(control).toBeDisabled();
  });

  it("redirects the whole page to '/' on success, and stays busy while it leaves", async () => {
    const view = renderLogin();
    await logIn(view);
    view.network.onlyRequest().respond(204);
    await waitFor(() => expect(view.navigate).toHaveBeenCalledWith('/'));
    expect(view.navigate).toHaveBeenCalledTimes(1);
    expect(logInButton()).toBeDisabled();
    expect(alert()).toBeEmptyDOMElement();
  });

  it('does not read the answer: any 2xx body redirects', async () => {
    const view = renderLogin();
    await logIn(view);
    view.network.onlyRequest().respond(200, '<!doctype html><p>welcome</p>');
    await waitFor(() => expect(view.navigate).toHaveBeenCalledWith('/'));
  });

  it('redirects to the redirect query value', async () => {
    const view = renderLogin('/login?redirect=%2Forganizations%2F42%3Ftab%3Dmembers');
    await logIn(view);
    view.network.onlyRequest().respond(200);
    await waitFor(() => expect(view.navigate).toHaveBeenCalledWith('/organizations/42?tab=members'));
  });

  it.each([
    '//evil.example',
    'https://evil.example/',
    '/\\evil.example',
    'javascript:alert(1)',
    'dashboard',
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
  ])("redirects to '/' instead of the unsafe redirect %s", async (redirect) => {
    const view = renderLogin(`/login?redirect=${encodeURIComponent(redirect)}`);
    await logIn(view);
    view.network.onlyRequest().respond(200);
    await waitFor(() => expect(view.navigate).toHaveBeenCalledWith('/'));
  });

  it.each([
    ['401', (respond: (status: number, body?: unknown) => void) => respond(401, { code: 'INVALID_CREDENTIALS' })],
    ['429', (respond: (status: number, body?: unknown) => void) => respond(429, { code: 'RATE_LIMITED' })],
    ['500', (respond: (status: number, body?: unknown) => void) => respond(500)],
    ['403 without a body', (respond: (status: number, body?: unknown) => void) => respond(403)],
  ])("goes back to idle with 'Incorrect username or password.' on a %s", async (_, answer) => {
    const view = renderLogin();
    await logIn(view);
    answer(view.network.onlyRequest().respond);
    expect(await within(alert()).findByText('Incorrect username or password.')).toBeInTheDocument();
    expect(logInButton()).toBeEnabled();
    expect(logInButton()).not.toHaveAttribute('aria-busy');
    expect(view.navigate).not.toHaveBeenCalled();
  });

  it('shows the same message when the network fails', async () => {
    const view = renderLogin();
    await logIn(view);
    view.network.onlyRequest().failNetwork();
    expect(await within(alert()).findByText('Incorrect username or password.')).toBeInTheDocument();
  });

  it('marks the fields, selects the password for retyping, and lets the user try again', async () => {
    const view = renderLogin();
    await logIn(view, 'ada', 'wrong');
    view.network.onlyRequest().respond(401);
    await within(alert()).findByText('Incorrect username or password.');
    expect(passwordField()).toHaveFocus();
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordField()).toHaveAccessibleDescription('Incorrect username or password.');
    await view.user.keyboard('right{Enter}');
    expect(view.network.requests).toHaveLength(2);
    expect(view.network.requests[1]!.body).toEqual({ username: 'ada', password: 'right' });
    expect(alert()).toBeEmptyDOMElement();
    view.network.requests[1]!.respond(204);
    await waitFor(() => expect(view.navigate).toHaveBeenCalledWith('/'));
  });

  it('submits on Enter, from a field or from the button, and only once while busy', async () => {
    const view = renderLogin();
    await view.user.type(usernameField(), 'ada');
    await view.user.type(passwordField(), 'secret{Enter}');
    expect(view.network.requests).toHaveLength(1);
    await view.user.type(passwordField(), '{Enter}');
    expect(view.network.requests).toHaveLength(1);
    view.network.onlyRequest().respond(401);
    await within(alert()).findByText('Incorrect username or password.');
    logInButton().focus();
    await view.user.keyboard('{Enter}');
    expect(view.network.requests).toHaveLength(2);
  });
});

describe('the login state machine', () => {
  const attempt = submitLogin({ credentials: { username: 'ada', password: 'secret' }, redirect: '/' });

  it('starts no second request while one is on its way, nor after success', async () => {
    const view = renderLogin();
    act(() => void view.store.dispatch(attempt));
    expect(view.store.getState().login).toEqual({ status: 'processing' });
    await act(() => view.store.dispatch(attempt));
    expect(view.network.requests).toHaveLength(1);
    act(() => view.network.onlyRequest().respond(204));
    await waitFor(() => expect(view.store.getState().login).toEqual({ status: 'redirecting' }));
    await act(() => view.store.dispatch(attempt));
    expect(view.network.requests).toHaveLength(1);
  });

  it("treats an aborted request ('canceled') as a failure", async () => {
    const view = renderLogin();
    await act(async () => {
      const running = view.store.dispatch(attempt);
      running.abort();
      await running;
    });
    expect(view.store.getState().login).toEqual({ status: 'idle', failed: true });
    expect(view.network.onlyRequest().init.signal?.aborted).toBe(true);
    expect(await within(alert()).findByText('Incorrect username or password.')).toBeInTheDocument();
  });
});

describe('the error query parameter', () => {
  it.each([
    ['/login?error=google', 'Google sign-in failed.'],
    ['/login?error=sso', 'Single sign-on (SSO) failed.'],
    ['/login?error=account', "You don't seem to have access to any organization."],
    ['/?error=google', 'Google sign-in failed.'],
    ['/login/google?error=sso', 'Single sign-on (SSO) failed.'],
    ['/login?redirect=%2Fx&error=account', "You don't seem to have access to any organization."],
  ])('%s shows %j', (route, message) => {
    renderLogin(route);
    expect(alert()).toHaveTextContent(message);
  });

  it.each([
    '/login/google',
    '/login/sso',
    '/login/account',
    '/login?error=unknown',
    '/login?error=',
    '/login?error=GOOGLE',
    '/login?errors=google',
  ])('%s shows no error: the message comes from the query parameter only', (route) => {
    renderLogin(route);
    expect(alert()).toBeEmptyDOMElement();
  });

  it('gives way to the login result once the user tries', async () => {
    const view = renderLogin('/login?error=google');
    await logIn(view);
    expect(alert()).toBeEmptyDOMElement();
    view.network.onlyRequest().respond(401);
    await within(alert()).findByText('Incorrect username or password.');
    expect(screen.queryByText('Google sign-in failed.')).not.toBeInTheDocument();
  });
});

describe('the from_rns marker', () => {
  const sentences = (product: string) => [
    `Your organization has been migrated from ${product} Classic to ${product}.`,
    'Same credentials can be used here.',
    'Please log in!',
  ];

  it.each([
    '/?from_rns',
    '/login?from_rns=1',
    '/login?redirect=%2Fx&from_rns=true',
    '/login?source=from_rns_mail',
    '/login/x?a=1&b=from_rns',
  ])('%s shows the migration notice', (route) => {
    renderLogin(route);
    for (const sentence of sentences('Chorus')) expect(screen.getByText(sentence)).toBeInTheDocument();
  });

  it('names the product in the notice', () => {
    renderLogin('/?from_rns', 'Acme');
    for (const sentence of sentences('Acme')) expect(screen.getByText(sentence)).toBeInTheDocument();
  });

  it.each(['/', '/login?from=rns', '/from_rns', '/login#from_rns'])('%s shows no notice', (route) => {
    renderLogin(route);
    expect(screen.queryByText('Same credentials can be used here.')).not.toBeInTheDocument();
  });
});
