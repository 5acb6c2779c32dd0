// The interim History page: the organization's most recent events, newest first, in words, with who did them.
import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { HistoryEvent } from '../../api/contract';
import { adaSession, anOrganization, consoleServer } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

const event = (revision: number, type: string, data: Record<string, unknown>, actor: string): HistoryEvent => ({
  id: `e${revision}`,
  type,
  data,
  metadata: { actor, correlationId: `c${revision}` },
  revision,
  position: revision * 10,
  recordedAt: `2030-03-12T09:0${revision}:00.000Z`,
});

const events = [
  event(0, 'OrganizationCreated', { id: 'acme', name: 'Acme' }, 'cli'),
  event(1, 'PlanAssigned', { line: 'chorus', plan: 'teams' }, 'billing'),
  event(2, 'MemberAdded', { userId: 'id-bob', email: 'bob@acme.example', role: 'admin', chorusUser: false }, 'user:id-ada'),
  event(3, 'MemberRemoved', { userId: 'id-bob' }, 'api-key:k1'),
  event(4, 'SsoConfigured', { issuer: 'https://login.acme.example', clientId: 'chorus', clientSecret: 'v1.k1.sealed', domains: ['acme.example', 'acme.test'], enforce: true }, 'user:id-ada'),
  event(5, 'MemberAdded', { userId: 'id-nina', email: 'nina@acme.example', role: 'member', chorusUser: false }, 'sso:acme'),
  event(6, 'SsoDisabled', {}, 'user:id-ada'),
];

describe('the history page', () => {
  it('lists the events newest first, in words, with their actor', async () => {
    const reads = consoleServer({ session: adaSession(), organizations: [anOrganization({ revision: 6 })] });
    const network = createFakeNetwork({
      server: (request) =>
        request.url === '/organizations/acme/history?fromRevision=0&limit=50'
          ? { status: 200, body: { organizationId: 'acme', events, nextFromRevision: 7, hasMore: false } }
          : reads(request),
    });
    renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/history', network });
    const list = await screen.findByRole('list', { name: 'Events, newest first' });
    await within(list).findByText('Member removed: bob@acme.example');
    expect(within(list).getAllByRole('listitem').map((item) => item.querySelector('.row__title')?.textContent)).toEqual([
      'Single sign-on turned off',
      'Member added: nina@acme.example as member',
      'Single sign-on configured: https://login.acme.example for acme.example, acme.test, required',
      'Member removed: bob@acme.example',
      'Member added: bob@acme.example as admin',
      'Plan assigned: Chorus teams',
      'Organization created: Acme',
    ]);
    expect(within(list).getAllByRole('listitem').map((item) => item.querySelector('.row__detail')?.textContent?.split(' · ')[1])).toEqual([
      'ada@acme.example',
      'Single sign-on',
      'ada@acme.example',
      'API key k1',
      'ada@acme.example',
      'Billing',
      'Command line',
    ]);
  });
});
