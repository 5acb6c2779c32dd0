// Shortcuts for e2e tests that need an organization in a given shape, through the public API.
import { expect } from '@jest/globals';
import { organizationStream } from '#domain';
import type { EventStore, RecordedEvent } from '#event-store';
import type { HttpClient, HttpResponse } from './http-client.js';

export type OrganizationSetup = {
  plan?: { line: 'classic' | 'chorus'; plan: string; serviceLevel?: string };
  limits?: Record<string, number | boolean | null>;
  chorus?: { enabled: boolean; parallelUse?: boolean };
  addOns?: { addOn: string; quantity?: number }[];
};

function expectOk(response: HttpResponse, what: string): HttpResponse {
  if (response.status >= 300) throw new Error(`${what} answered ${response.status}: ${response.text}`);
  return response;
}

/** Creates an organization (with a new id) and applies the setup; answers its id. */
export async function createOrganization(api: HttpClient, setup: OrganizationSetup = {}): Promise<string> {
  const created = expectOk(await api.post('/organizations', { name: 'Test organization' }), 'POST /organizations');
  const id = created.body.id as string;
  if (setup.plan) expectOk(await api.post(`/organizations/${id}/plan`, setup.plan), 'plan');
  if (setup.chorus) expectOk(await api.put(`/organizations/${id}/chorus`, setup.chorus), 'chorus');
  for (const addOn of setup.addOns ?? []) expectOk(await api.post(`/organizations/${id}/add-ons`, addOn), 'add-on');
  if (setup.limits) expectOk(await api.put(`/organizations/${id}/limits`, setup.limits), 'limits');
  return id;
}

/** The organization's stream as recorded (empty when it does not exist). */
export async function organizationEvents(store: EventStore, organizationId: string): Promise<RecordedEvent[]> {
  const read = await store.readStream(organizationStream(organizationId));
  return read.found ? read.events : [];
}

/**
 * Makes a call that must be refused with `status` and `code` as problem+json, and checks that the
 * organization's stream is exactly as it was before.
 */
export async function expectRefusal(
  store: EventStore,
  organizationId: string,
  call: () => Promise<HttpResponse>,
  status: number,
  code: string,
): Promise<HttpResponse> {
  const before = await organizationEvents(store, organizationId);
  const response = await call();
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
  });
  expect(await organizationEvents(store, organizationId)).toEqual(before);
  return response;
}
