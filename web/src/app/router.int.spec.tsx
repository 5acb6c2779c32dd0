import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
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

  it.each(['/', '/login', '/login/', '/login/google', '/login/anything?x=1', '/reset', '/nowhere', '/deep/unknown/path', '/forgotten'])(
    '%s is the login screen',
    (route) => {
      renderWithProviders(<AppRoutes />, { route });
      expect(heading()).toHaveTextContent('Welcome back to Chorus,');
    },
  );

  it('moves between the screens without reloading the page', async () => {
    const view = renderWithProviders(<AppRoutes />, { route: '/login' });
    await view.user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(heading()).toHaveTextContent('Forgot your password?');
    await view.user.click(screen.getByRole('link', { name: 'Chorus' }));
    expect(heading()).toHaveTextContent('Welcome back to Chorus,');
    expect(view.navigate).not.toHaveBeenCalled();
  });
});
