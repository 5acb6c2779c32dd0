// Domains from the user's side: the QA and web analytics lists; when a feature is off, which add-on turns it on.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import { adaSession, anOrganization, consoleServer, type StoredOrganization } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

function renderDomains(organization: StoredOrganization = anOrganization()) {
  const network = createFakeNetwork({
    server: consoleServer({ session: adaSession(), organizations: [organization] }),
  });
  return renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/domains', network });
}

const withQualityAssurance = anOrganization({
  chorusFeatures: { ...anOrganization().chorusFeatures, qualityAssurance: true },
  addOns: { qualityAssurance: 1 },
  limits: {
    ...anOrganization().limits,
    configured: { ...anOrganization().limits.configured, qualityAssuranceDomains: 1 },
    effective: { ...anOrganization().limits.effective, qualityAssuranceDomains: 1 },
  },
  canAdd: { ...anOrganization().canAdd, qualityAssuranceDomains: false },
  qualityAssurance: { domains: ['staging.acme.example'] },
  usage: { ...anOrganization().usage, qualityAssuranceDomains: 1 },
});

describe('the domains page', () => {
  it('says which add-on turns a feature on while it is off, and offers no form', async () => {
    renderDomains();
    const qa = await screen.findByRole('region', { name: 'QA domains' });
    expect(qa).toHaveTextContent('Quality assurance is off for Acme: the Quality assurance add-on turns it on.');
    expect(within(qa).queryByRole('form')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Web analytics domains' })).toHaveTextContent(
      'the Web analytics add-on turns it on.',
    );
    expect(qa).not.toHaveTextContent('support');
  });

  it('says a list whose feature is off is "Not included", not "0 of unlimited"', async () => {
    renderDomains();
    const qa = await screen.findByRole('region', { name: 'QA domains' });
    expect(qa).toHaveTextContent('Not included');
    expect(qa).not.toHaveTextContent(/of unlimited|of 1,000/);
    expect(within(qa).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('asks for a domain before sending anything', async () => {
    const base = anOrganization();
    const features = { ...base.chorusFeatures, qualityAssurance: true };
    const view = renderDomains({
      ...base,
      chorusFeatures: features,
      canAdd: { ...base.canAdd, qualityAssuranceDomains: true },
    });
    await view.user.click(await screen.findByRole('button', { name: 'Add QA domain' }));
    expect(await screen.findByText('Enter a domain, like staging.example.com.')).toBeInTheDocument();
    expect(view.network.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('says Chorus itself must be on first when it is off', async () => {
    renderDomains(anOrganization({ chorus: false }));
    expect(await screen.findByRole('region', { name: 'QA domains' })).toHaveTextContent(
      'Quality assurance is a Chorus feature, and Chorus is off for Acme.',
    );
  });

  it('lists the domains and adds one, reading the list again after', async () => {
    const view = renderDomains(withQualityAssurance);
    const qa = await screen.findByRole('region', { name: 'QA domains' });
    expect(within(qa).getByRole('list', { name: 'QA domains' })).toHaveTextContent('staging.acme.example');
    expect(within(qa).getByText('QA domains limit reached: 1 of 1')).toBeInTheDocument();
    await view.user.type(within(qa).getByLabelText('QA domain'), 'preview.acme.example');
    await view.user.click(within(qa).getByRole('button', { name: 'Add QA domain' }));
    const post = await view.network.take('POST');
    expect(post).toMatchObject({
      url: '/organizations/acme/quality-assurance/domains',
      body: { domain: 'preview.acme.example' },
    });
    post.respond(409, {
      status: 409,
      code: 'LIMIT_EXCEEDED',
      resource: 'qualityAssuranceDomains',
      limit: 1,
      count: 1,
      detail: '',
    });
    await waitFor(() =>
      expect(within(qa).getByRole('alert')).toHaveTextContent(
        'QA domains limit reached: 1 of 1. Each Quality assurance add-on adds one QA domain, and a larger plan allows more.',
      ),
    );
    expect(within(qa).getByLabelText('QA domain')).toHaveValue('preview.acme.example');
  });
});
