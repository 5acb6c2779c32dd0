// Sites from the user's side: the "Add site" form states the seed's hostname rule, refusals come back in
// words with the typed values kept, hostnames show in Unicode form, and the limit is said before typing.
import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../app/router';
import type { Organization } from '../../api/contract';
import { adaSession, anOrganization, consoleServer } from '../../testing/console-fixtures';
import { createFakeNetwork } from '../../testing/fake-network';
import { renderWithProviders } from '../../testing/render-with-providers';

const site = (siteId: string, name: string, hostname: string) => ({ siteId, name, hostname, ...(anOrganization().siteDefaults as NonNullable<Organization['siteDefaults']>) });

function renderSites(organization: Organization = anOrganization()) {
  const network = createFakeNetwork({ server: consoleServer({ session: adaSession(), organizations: [organization] }) });
  return renderWithProviders(<AppRoutes />, { route: '/app/orgs/acme/sites', network });
}

const form = () => screen.getByRole('form', { name: 'Add site' });

describe('the sites page', () => {
  it("states the seed's hostname rule as the field's help text", async () => {
    renderSites();
    const hostname = await screen.findByLabelText('Hostname');
    expect(hostname).toHaveAccessibleDescription(/needs a dot, unless it is localhost/);
    expect(hostname).toHaveAccessibleDescription(/starting with http:\/\/ or https:\/\//);
  });

  it('lists sites by name and hostname in Unicode form', async () => {
    renderSites(anOrganization({ sites: [site('s1', 'Bücher', 'bücher.example')], usage: { ...anOrganization().usage, contentSections: 1 } }));
    const list = await screen.findByRole('list', { name: 'Sites' });
    expect(within(list).getByRole('listitem')).toHaveTextContent('Bücherbücher.example');
  });

  it('shows an invalid hostname refusal in words, keeping the name and hostname typed', async () => {
    const view = renderSites();
    await view.user.type(await screen.findByLabelText('Name'), 'Web shop');
    await view.user.type(screen.getByLabelText('Hostname'), 'shop');
    await view.user.click(screen.getByRole('button', { name: 'Add site' }));
    const post = await view.network.take('POST');
    expect(post).toMatchObject({ url: '/organizations/acme/sites', body: { name: 'Web shop', hostname: 'shop' } });
    post.respond(400, { status: 400, code: 'INVALID_HOSTNAME', field: 'hostname', value: 'shop', detail: '' });
    await waitFor(() => expect(within(form()).getByRole('alert')).toHaveTextContent('“shop” is not a hostname'));
    expect(screen.getByLabelText('Name')).toHaveValue('Web shop');
    expect(screen.getByLabelText('Hostname')).toHaveValue('shop');
    expect(screen.getByLabelText('Hostname')).toHaveAttribute('aria-invalid', 'true');
  });

  it('says the content sections limit is reached before anyone types', async () => {
    renderSites(anOrganization({ sites: [site('s1', 'One', 'one.example'), site('s2', 'Two', 'two.example')], usage: { ...anOrganization().usage, contentSections: 2 }, canAdd: { ...anOrganization().canAdd, contentSections: false } }));
    expect(await screen.findByText('Content sections limit reached: 2 of 2')).toBeInTheDocument();
    expect(screen.getByText('An Additional content section add-on, or another plan, raises it.')).toBeInTheDocument();
  });
});
