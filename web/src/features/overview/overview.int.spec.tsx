// The Overview from the user's side (docs/console.md, Overview): plans, limits as "N of M" with accessible
// bars and what is left, the 17 Chorus features, site defaults, who is notified, and what is wrong
// (no plan, a Chorus plan while Chorus is off) with the way forward for owners and for everyone else.
import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { Organization, Role } from '../../api/contract';
import { defaultPageConfig, type PageConfig } from '../../config/page-config-slice';
import {
  adaSession,
  anOrganization,
  consoleServer,
  member,
  type StoredOrganization,
} from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

function renderOverview(
  organization: StoredOrganization = anOrganization(),
  role: Role = 'owner',
  contact: Partial<PageConfig> = {},
) {
  const session = adaSession([{ id: 'acme', name: organization.name, role }]);
  const network = createFakeNetwork({ server: consoleServer({ session, organizations: [organization] }) });
  return renderWithProviders(<AppRoutes />, {
    route: '/app/orgs/acme',
    network,
    preloadedState: { pageConfig: { ...defaultPageConfig, ...contact } },
  });
}

const limitCard = (name: string) =>
  screen
    .getAllByRole('listitem')
    .find((item) => item.querySelector('.limit__name')?.textContent === name) as HTMLElement;

describe('the overview', () => {
  it('shows each limit as "N of M" with a progress bar and how many more fit; domains whose feature is off are "Not included"', async () => {
    renderOverview();
    await screen.findByRole('heading', { level: 1, name: 'Overview' });

    const users = limitCard('Users');
    expect(within(users).getByText('1 of 5')).toBeInTheDocument();
    const bar = within(users).getByRole('progressbar', { name: 'Users' });
    expect(bar).toHaveAttribute('aria-valuenow', '1');
    expect(bar).toHaveAttribute('aria-valuemax', '5');
    expect(bar).toHaveAttribute('aria-valuetext', '1 of 5');
    expect(users).toHaveTextContent('4 more can be added');
    // How the figure is made is the operator's business: none of its mechanics on the page.
    expect(screen.getByRole('region', { name: 'Limits' })).not.toHaveTextContent(
      /configured|hard limit|override|parallel/i,
    );

    expect(limitCard('Sites')).toHaveTextContent('0 of 2');
    expect(limitCard('Sites')).toHaveTextContent('2 more can be added');

    const qa = limitCard('QA domains');
    expect(within(qa).getByText('Not included')).toBeInTheDocument();
    expect(within(qa).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(qa).toHaveTextContent('Comes with the Quality assurance add-on');
    expect(limitCard('Web analytics domains')).toHaveTextContent('Not includedComes with the Web analytics add-on');
  });

  it('shows an included unlimited list as "0 of unlimited", the web analytics cap as "1,000", and the plan when its maximum is what binds', async () => {
    const base = anOrganization();
    const features = { ...base.chorusFeatures, qualityAssurance: true, webAnalytics: true };
    const limits = {
      ...base.limits,
      configured: { ...base.limits.configured, users: 20 },
      effective: { ...base.limits.effective, users: 10 },
    };
    const view = renderOverview({ ...base, chorusFeatures: features, limits });
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(limitCard('QA domains')).toHaveTextContent('0 of unlimitedNo limit');
    expect(within(limitCard('QA domains')).getByRole('progressbar')).not.toHaveAttribute('aria-valuemax');
    expect(limitCard('Web analytics domains')).toHaveTextContent('0 of 1,0001,000 more can be added');
    expect(limitCard('Users')).toHaveTextContent('1 of 109 more can be added. The most the Teams plan allows.');
    view.unmount();
  });

  it('shows the plans, Chorus (alongside Classic when used in parallel), the service level, add-ons with quantities and traffic per month', async () => {
    renderOverview(
      anOrganization({
        plan: 'professional',
        addOns: { additionalUser: 2, qualityAssurance: 1 },
        serviceLevel: 'assisted',
        chorusDetails: { plan: 'teams', parallelUse: true },
      }),
    );
    const plans = await screen.findByRole('region', { name: 'Plans' });
    const facts: [string, string][] = [
      ['Classic plan', 'Professional'],
      ['Chorus plan', 'Teams'],
      ['Chorus', 'On, alongside Classic'],
      ['Service level', 'Assisted'],
      ['Traffic per month', '1,000,000 page views'],
    ];
    for (const [term, value] of facts) {
      expect(within(plans).getByText(term, { selector: 'dt' }).nextElementSibling).toHaveTextContent(value);
    }
    expect(within(plans).getByText('Additional user × 2')).toBeInTheDocument();
    expect(within(plans).getByText('Quality assurance × 1')).toBeInTheDocument();
  });

  it('lists the 17 Chorus features on and off by what they let the organization do, several sites and the site defaults', async () => {
    renderOverview();
    const features = await screen.findByRole('list', { name: 'Chorus features' });
    const items = within(features).getAllByRole('listitem');
    expect(items).toHaveLength(17);
    expect(items.filter((item) => item.textContent?.endsWith(': on'))).toHaveLength(13);
    expect(within(features).getByText('Matomo integration').parentElement).toHaveTextContent('Matomo integration: on');
    expect(within(features).getByText('Turning off the AI summary').parentElement).toHaveTextContent(
      'Turning off the AI summary: off',
    );
    expect(within(features).getByText('Chat support').parentElement).toHaveTextContent('Chat support: off');
    const sites = screen.getByRole('region', { name: 'Sites' });
    expect(within(sites).getByText('Several sites').nextElementSibling).toHaveTextContent('Yes');
    expect(within(sites).getByText('Weekly and Monthly')).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Site defaults' })).getByText('Anonymized feedback').parentElement,
    ).toHaveTextContent(': off');
  });

  it('at a limit, links an owner to UPGRADE_URL from the limit itself', async () => {
    const full = anOrganization({
      usage: { ...anOrganization().usage, users: 5 },
      canAdd: { ...anOrganization().canAdd, users: false },
    });
    renderOverview(full, 'owner', { upgradeUrl: 'https://billing.example.com/portal' });
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(limitCard('Users')).toHaveTextContent('5 of 5None left');
    expect(within(limitCard('Users')).getByRole('link', { name: 'Change the plan or add-ons' })).toHaveAttribute(
      'href',
      'https://billing.example.com/portal',
    );
    expect(within(limitCard('Sites')).queryByRole('link')).not.toBeInTheDocument();
  });

  it("shows this month's traffic against the allowance, amber from 80% and red at 100% with the day each was reached, and never a limit on traffic", async () => {
    const traffic = (used: number, reached: Organization['traffic']['reached'], allowance: number | null = 1_000_000) =>
      anOrganization({ traffic: { period: '2030-03', used, allowance, reached } });
    const first = renderOverview(traffic(120_000, []));
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    const card = () => limitCard('Traffic this month');
    const bar = () => within(card()).getByRole('progressbar', { name: 'Traffic this month' });
    expect(card()).toHaveTextContent('120,000 of 1,000,000 page views');
    expect(card()).toHaveTextContent('880,000 page views left in March 2030');
    expect(bar()).toHaveAttribute('aria-valuenow', '120000');
    expect(bar()).toHaveAttribute('aria-valuemax', '1000000');
    expect(bar()).toHaveClass('progress--normal');
    expect(within(card()).queryByRole('link')).not.toBeInTheDocument();
    first.unmount();

    const high = renderOverview(traffic(850_000, [{ threshold: 80, at: '2030-03-12T10:00:00.000Z' }]), 'owner', {
      upgradeUrl: 'https://billing.example.com/portal',
    });
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(card()).toHaveTextContent(
      '80% of the allowance was reached on March 12: 150,000 page views left in March 2030.',
    );
    expect(bar()).toHaveClass('progress--high');
    expect(within(card()).getByRole('link', { name: 'Change the plan or add-ons' })).toHaveAttribute(
      'href',
      'https://billing.example.com/portal',
    );
    high.unmount();

    const over = renderOverview(
      traffic(1_200_000, [
        { threshold: 80, at: '2030-03-12T10:00:00.000Z' },
        { threshold: 100, at: '2030-03-24T10:00:00.000Z' },
      ]),
    );
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(card()).toHaveTextContent('1,200,000 of 1,000,000 page views');
    expect(card()).toHaveTextContent(
      'The allowance for March 2030 was used up on March 24. Traffic is still counted; nothing is blocked.',
    );
    expect(bar()).toHaveClass('progress--full');
    over.unmount();

    renderOverview(traffic(5_000, [], null));
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(card()).toHaveTextContent('5,000 page views');
    expect(card()).toHaveTextContent(
      'No monthly allowance on this plan: traffic in March 2030 is counted, never limited.',
    );
    expect(within(card()).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  // Big Co: `org:plan big-co --line chorus --plan enterprise` with Chorus off, and no Classic plan.
  const bigCo = () =>
    anOrganization({
      name: 'Big Co',
      chorus: false,
      chorusDetails: { plan: 'enterprise', parallelUse: null },
      governingPlan: null,
      members: [
        member('ada@acme.example', 'owner'),
        member('olu@acme.example', 'owner'),
        member('cem@acme.example', 'member'),
      ],
    });

  it('says a Chorus plan with Chorus off is not in effect and how to fix it; an owner gets whom to write to', async () => {
    renderOverview(bigCo(), 'owner', { supportEmail: 'help@chorus.example' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeInTheDocument();
    expect(screen.getByText('Big Co has a Chorus plan, but Chorus is off.')).toBeInTheDocument();
    expect(screen.queryByText(/no plan yet/)).not.toBeInTheDocument();
    expect(
      screen.getByText(
        'Chorus is off, so its Enterprise plan is not in effect: nothing can be added until Chorus is turned on.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/^Write to/).closest('p')).toHaveTextContent(
      'Write to help@chorus.example to turn Chorus on.',
    );
    // Not "1 of unlimited": without a plan in effect nothing more fits.
    expect(limitCard('Users')).toHaveTextContent('1 in useNothing more until a plan is in effect');
    expect(within(limitCard('Users')).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'help@chorus.example' })).toHaveAttribute(
      'href',
      'mailto:help@chorus.example',
    );
  });

  it('tells anyone else whom to ask: the organization’s owners', async () => {
    renderOverview(bigCo(), 'member', { supportEmail: 'help@chorus.example' });
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(
      screen.getByText('Ask an owner to turn Chorus on: ada@acme.example or olu@acme.example.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'help@chorus.example' })).not.toBeInTheDocument();
  });

  it('without a plan, links an owner to UPGRADE_URL; without any setting, offers no way that leads nowhere', async () => {
    const noPlan = anOrganization({
      chorus: false,
      chorusDetails: { plan: null, parallelUse: null },
      governingPlan: null,
    });
    const view = renderOverview(noPlan, 'owner', { upgradeUrl: 'https://billing.example.com/portal' });
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(screen.getByText('Acme has no plan, so nothing can be added until one is chosen.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute(
      'href',
      'https://billing.example.com/portal',
    );
    view.unmount();

    renderOverview(noPlan, 'owner');
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    expect(screen.getByText('Acme has no plan, so nothing can be added until one is chosen.')).toBeInTheDocument();
    expect(screen.queryByText(/Chorus support/)).not.toBeInTheDocument();
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
