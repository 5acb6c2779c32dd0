import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { defaultPageConfig } from '../config/page-config-slice';
import { renderWithProviders } from '../testing/render-with-providers';
import { AppRoutes } from './router';

const heading = () => screen.getByRole('heading', { level: 1 });

describe('the routes', () => {
  it.each(['/forgot', '/forgot/'])('%s is the forgot-password screen', (route) => {
    renderWithProviders(<AppRoutes />, { route });
    expect(heading()).toHaveTextContent('Forgot your password?');
  });

  it('/reset/:token is the reset-password screen', () => {
    renderWithProviders(<AppRoutes />, { route: '/reset/abc' });
    expect(heading()).toHaveTextContent('Choose a new password');
  });

  it.each([
    '/',
    '/login',
    '/login/',
    '/login/google',
    '/login/anything?x=1',
    '/reset',
    '/nowhere',
    '/deep/unknown/path',
    '/forgotten',
  ])('%s is the login screen', (route) => {
    renderWithProviders(<AppRoutes />, { route });
    expect(heading()).toHaveTextContent('Welcome back to Chorus,');
  });

  it.each([
    ['/login', 'Log in · Chorus'],
    ['/', 'Log in · Chorus'],
    ['/login/google?error=google', 'Log in · Chorus'],
    ['/forgot', 'Forgot your password? · Chorus'],
    ['/reset/abc', 'Reset your password · Chorus'],
  ])('%s has the title %j', (route, title) => {
    renderWithProviders(<AppRoutes />, { route });
    expect(document.title).toBe(title);
  });

  it('names the product of the page config in the title', () => {
    renderWithProviders(<AppRoutes />, {
      route: '/forgot',
      preloadedState: { pageConfig: { ...defaultPageConfig, productName: 'Acme Voice' } },
    });
    expect(document.title).toBe('Forgot your password? · Acme Voice');
  });

  it('moves between the screens without reloading the page', async () => {
    const view = renderWithProviders(<AppRoutes />, { route: '/login' });
    await view.user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(heading()).toHaveTextContent('Forgot your password?');
    expect(document.title).toBe('Forgot your password? · Chorus');
    await view.user.click(screen.getByRole('link', { name: 'Chorus' }));
    expect(heading()).toHaveTextContent('Welcome back to Chorus,');
    expect(document.title).toBe('Log in · Chorus');
    expect(view.navigate).not.toHaveBeenCalled();
  });
});
