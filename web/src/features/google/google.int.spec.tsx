import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import { defaultPageConfig } from '../../config/page-config-slice';
import { renderWithProviders } from '../../testing/render-with-providers';

const renderLogin = (route: string, googleSignInToken = '') =>
  renderWithProviders(<AppRoutes />, {
    route,
    preloadedState: { pageConfig: { ...defaultPageConfig, googleSignInToken } },
  });

describe('Sign in with Google', () => {
  it.each([
    ['/login', '', '/auth/go/'],
    ['/login', 'tenant-7', '/auth/go/tenant-7'],
    ['/login/google?error=google', 'tenant-7', '/auth/go/tenant-7'],
    ['/login?redirect=%2Freports%3Fweek%3D3', '', '/auth/go/?redirect=%2Freports%3Fweek%3D3'],
    ['/?redirect=%2Freports', 'tenant-7', '/auth/go/tenant-7?redirect=%2Freports'],
    ['/login?redirect=%2F%2Fevil.example', 'tenant-7', '/auth/go/tenant-7'],
    ['/login?redirect=https%3A%2F%2Fevil.example', '', '/auth/go/'],
  ])('from %s with token %j sends the whole page to %s', async (route, token, href) => {
    const view = renderLogin(route, token);
    await view.user.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    expect(view.navigate).toHaveBeenCalledWith(href);
    expect(view.network.requests).toHaveLength(0);
  });

  it('encodes a token that is not URL-safe', async () => {
    const view = renderLogin('/', 'a b/c');
    await view.user.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    expect(view.navigate).toHaveBeenCalledWith('/auth/go/a%20b%2Fc');
  });

  it('does not submit the login form', async () => {
    const view = renderLogin('/login');
    await view.user.type(screen.getByPlaceholderText('e-mail or username'), 'ada');
    await view.user.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    expect(view.network.requests).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
  });
});
