// The Overview from the user's side (docs/console.md, Overview): plans, limits as "N of M" with accessible
// bars and the limit that binds, the 17 Chorus features, site defaults, and who is notified.
import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { Organization, Role } from '../../api/contract';
import { adaSession, anOrganization, consoleServer } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

function renderOverview(organization: Organization = anOrganization(), role: Role = 'owner') {
  const network = createFakeNetwork({ server: consoleServer({ session: adaSession([{ id: 'acme', name: 'Acme', role }]), organizations: [organization] }) });
  return renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme', network });
}

const limitCard = (name: string) => screen.getAllByRole('listitem').find((item) => item.querySelector('.limit__name')?.textContent === name) as HTMLElement;

describe('the overview', () => {
  it('shows each limit as "N of M" with a progress bar, the configured and hard limits and which binds', async () => {
    renderOverview();
    await screen.findByRole('heading', { level: 1, name: 'Overview' });

    const users = limitCard('Users');
    expect(within(users).getByText('1 of 5')).toBeInTheDocument();
    const bar = within(users).getByRole('progressbar', { name: 'Users' });
    expect(bar).toHaveAttribute('aria-valuenow', '1');
    expect(bar).toHaveAttribute('aria-valuemax', '5');
    expect(bar).toHaveAttribute('aria-valuetext', '1 of 5');
    expect(users).toHaveTextContent('Configured5Hard limit10Overrideoff');
    expect(users).toHaveTextContent('The configured limit applies: it is below the hard limit.');

    const sections = limitCard('Content sections');
    expect(sections).toHaveTextContent('0 of 2');
    expect(sections).toHaveTextContent('The configured limit applies: the plan sets no hard limit.');

    const qa = limitCard('QA domains');
    expect(within(qa).getByText('0 of unlimited')).toBeInTheDocument();
    expect(within(qa).getByRole('progressbar')).not.toHaveAttribute('aria-valuemax');
    expect(qa).toHaveTextContent('No limit applies.');
  });

  it('says when the hard limit binds, and when the override lifts it', async () => {
    const base = anOrganization();
    const view = renderOverview({ ...base, limits: { ...base.limits, configured: { ...base.limits.configured, users: 20 }, effective: { ...base.limits.effective, users: 10 } } });
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(limitCard('Users')).toHaveTextContent('The hard limit applies: the plan allows no more.');
    view.unmount();

    renderOverview({ ...base, limits: { ...base.limits, override: true, configured: { ...base.limits.configured, users: 20 }, effective: { ...base.limits.effective, users: 20 } } });
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(limitCard('Users')).toHaveTextContent('Hard limit10, ignored');
    expect(limitCard('Users')).toHaveTextContent('Override is on: the hard limit is ignored and the configured limit applies.');
  });

  it('shows the plans, Chorus and parallel use, the service level, add-ons with quantities and traffic per month', async () => {
    renderOverview(anOrganization({ plan: 'professional', addOns: { additionalUser: 2, qualityAssurance: 1 }, serviceLevel: 'assisted', chorusDetails: { plan: 'teams', parallelUse: true } }));
    const plans = await screen.findByRole('region', { name: 'Plans' });
    const facts: [string, string][] = [
      ['Classic plan', 'Professional'],
      ['Chorus plan', 'Teams'],
      ['Chorus', 'On'],
      ['Parallel use', 'Yes'],
      ['Service level', 'Assisted'],
      ['Traffic per month', '1,000,000 page views'],
    ];
    for (const [term, value] of facts) {
      expect(within(plans).getByText(term, { selector: 'dt' }).nextElementSibling).toHaveTextContent(value);
    }
    expect(within(plans).getByText('Additional user × 2')).toBeInTheDocument();
    expect(within(plans).getByText('Quality assurance × 1')).toBeInTheDocument();
  });

  it('lists the 17 Chorus features on and off, multiSite and the site defaults', async () => {
    renderOverview();
    const features = await screen.findByRole('list', { name: 'Chorus features' });
    const items = within(features).getAllByRole('listitem');
    expect(items).toHaveLength(17);
    expect(items.filter((item) => item.textContent?.endsWith(': on'))).toHaveLength(13);
    expect(within(features).getByText('Matomo integration').parentElement).toHaveTextContent('Matomo integration: on');
    expect(within(features).getByText('Chat support').parentElement).toHaveTextContent('Chat support: off');
    const sites = screen.getByRole('region', { name: 'Sites' });
    expect(within(sites).getByText('Several sites (multiSite)').nextElementSibling).toHaveTextContent('On');
    expect(within(sites).getByText('Weekly and Monthly')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Site defaults' })).getByText('Anonymized feedback').parentElement).toHaveTextContent(': off');
  });

  it('shows owners and admins who the Chorus line notifies, and the rule in words; not members', async () => {
    const view = renderOverview();
    const recipients = await screen.findByRole('region', { name: 'Notification recipients' });
    expect(recipients).toHaveTextContent('Chorus is on without parallel use, so every member is notified.');
    expect(await within(recipients).findByText('ada@acme.example')).toBeInTheDocument();
    view.unmount();

    renderOverview(anOrganization(), 'member');
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(screen.queryByRole('region', { name: 'Notification recipients' })).not.toBeInTheDocument();
  });
});
