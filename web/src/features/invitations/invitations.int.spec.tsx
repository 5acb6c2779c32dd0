// The invitation link's page from the invited person's side: what they are invited to, a password
// chosen twice under the reset's rules, and the console after; a spent link says so.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import { createFakeNetwork, type FakeServer } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

const token = 'A'.repeat(64);
const invitation: FakeServer = ({ url, method }) =>
  method === 'GET' && url === `/invitations/${token}`
    ? {
        status: 200,
        body: {
          email: 'grace@acme.example',
          organizationName: 'Acme',
          expiresAt: '2030-03-19T09:00:00.000Z',
          singleSignOn: null,
        },
      }
    : undefined;

function renderInvitation(server: FakeServer = invitation) {
  return renderWithProviders(<AppRoutes />, { route: `/invite/${token}`, network: createFakeNetwork({ server }) });
}

async function choose(view: ReturnType<typeof renderInvitation>, password: string, again = password) {
  await view.user.type(await screen.findByLabelText('New password'), password);
  await view.user.type(screen.getByLabelText('Confirm new password'), again);
  await view.user.click(screen.getByRole('button', { name: 'Join Acme' }));
}

describe('the invitation page', () => {
  it('says what the invitation is for, on the sign-in page’s layout', async () => {
    renderInvitation();
    expect(await screen.findByRole('heading', { level: 1, name: 'Join Acme' })).toBeInTheDocument();
    expect(screen.getByText('Choose a password for grace@acme.example, and you are in.')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('grace@acme.example');
    expect(screen.getByRole('link', { name: 'Chorus' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Join Acme · Chorus'));
  });

  it('checks the two passwords match before sending', async () => {
    const view = renderInvitation();
    await choose(view, 'a passphrase of mine', 'a passphrase of minE');
    expect(screen.getByRole('alert')).toHaveTextContent('The two passwords do not match.');
    expect(view.network.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it("shows the password rules' refusal, then accepts and loads the console", async () => {
    const view = renderInvitation();
    await choose(view, 'short');
    const refused = await view.network.take('POST');
    expect(refused).toMatchObject({ url: '/invitations/accept', body: { token, password: 'short' } });
    refused.respond(400, {
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'The password must be at least 8 characters long.',
    });
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('The password must be at least 8 characters long.'),
    );

    await view.user.clear(screen.getByLabelText('New password'));
    await view.user.clear(screen.getByLabelText('Confirm new password'));
    await choose(view, 'a passphrase of mine');
    const accepted = await view.network.take('POST');
    accepted.respond(204);
    await waitFor(() => expect(view.navigate).toHaveBeenCalledWith('/app'));
  });

  it('sends the invitee of an organization that enforces single sign-on there, with no password to choose', async () => {
    const sso = '/auth/sso/org-acme?redirect=%2Fapp';
    renderInvitation(({ url, method }) =>
      method === 'GET' && url === `/invitations/${token}`
        ? {
            status: 200,
            body: {
              email: 'grace@acme.example',
              organizationName: 'Acme',
              expiresAt: '2030-03-19T09:00:00.000Z',
              singleSignOn: sso,
            },
          }
        : undefined,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Join Acme' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Acme signs you in through its single sign-on. Continue there as grace@acme.example, and you are in.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Join with single sign-on' })).toHaveAttribute('href', sso);
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('says a used or expired link cannot be used, and leads back to the login', async () => {
    renderInvitation(() => ({
      status: 400,
      body: { status: 400, code: 'INVALID_TOKEN', detail: 'This invitation link is unknown, used or expired.' },
    }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This invitation cannot be used' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This link is invalid, has been used or has expired.');
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login');
  });
});
