// A single sign-on domain proved as its owner proves it: the organization's verification token published in DNS (beside
// those published before), then `POST .../sso/domains/:domain/verify`. The record is read from the organization's view.
import type { DnsServer } from './dns-server.js';
import type { HttpClient } from './http-client.js';

type DomainState = { domain: string; record: { name: string; value: string } | null };

export async function proveSsoDomain(
  api: HttpClient,
  dns: DnsServer,
  organizationId: string,
  domain: string,
): Promise<void> {
  const states = (await api.get(`/organizations/${organizationId}`)).body.sso.settings.domainStates as DomainState[];
  const record = states.find((state) => state.domain === domain)?.record;
  if (record === undefined || record === null) throw new Error(`${domain} has no verification record`);
  await dns.publish({ [record.name]: [record.value] });
  const checked = await api.post(`/organizations/${organizationId}/sso/domains/${domain}/verify`, {});
  if (checked.body?.lookup !== 'found' || checked.body?.status !== 'verified')
    throw new Error(`${domain} was not verified: ${checked.text}`);
}
