// The owners are mailed once when Stripe says the trial ends soon and when a payment fails, however
// often Stripe delivers those events; a later change that is not a new failure mails no one.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';
import { SmtpInbox, unfolded, type ReceivedMail } from '../support/smtp-inbox.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { deliverToStripeEndpoint, invoice, stripeEvent, subscriptionObject } from '../support/stripe-events.js';

const secret = 'whsec_e2e_stripe_mails_0123456789';
let inbox: SmtpInbox;
let running: RunningApp;
let api: HttpClient;

beforeAll(async () => {
  inbox = await SmtpInbox.start();
  running = await startApp({
    SMTP_URL: inbox.url,
    STRIPE_WEBHOOK_SECRET: secret,
    PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro',
    LOG_LEVEL: 'silent',
  });
  api = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
  });
});

afterAll(async () => {
  await running.close();
  await inbox.close();
});

const subjectOf = (mail: ReceivedMail): string => /^Subject: (.*)$/m.exec(unfolded(mail))?.[1] ?? '';

async function mailsAbout(pattern: RegExp, count: number): Promise<ReceivedMail[]> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const found = inbox.received.filter((mail) => pattern.test(subjectOf(mail)));
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return inbox.received.filter((mail) => pattern.test(subjectOf(mail)));
}

it('mails the owners once about a trial ending and once about a failed payment', async () => {
  const id = await createOrganization(api);
  expect((await api.post(`/organizations/${id}/members`, { email: 'owner@example.com', role: 'owner' })).status).toBe(
    201,
  );
  const start = Math.floor(Date.UTC(2026, 10, 20) / 1000);
  const trialEnd = start + 14 * 86_400;
  const trialing = subscriptionObject({
    id: `sub_mail_${id}`,
    organizationId: id,
    status: 'trialing',
    items: [{ price: 'price_ess', product: 'prod_ess' }],
    trialEnd,
  });
  const deliver = (event: Record<string, unknown>) =>
    deliverToStripeEndpoint(httpClient(running.baseUrl), event, { secret });

  expect((await deliver(stripeEvent('customer.subscription.created', trialing, start))).status).toBe(200);
  // Members are not told: only owners.
  expect((await api.post(`/organizations/${id}/members`, { email: 'member@example.com', role: 'member' })).status).toBe(
    201,
  );
  const ending = stripeEvent('customer.subscription.trial_will_end', trialing, trialEnd - 3 * 86_400);
  await Promise.all([deliver(ending), deliver(ending), deliver(ending)]);

  const [trialMail, ...more] = await mailsAbout(/trial ends on 4 December 2026/, 1);
  expect(trialMail?.to).toEqual(['owner@example.com']);
  expect(unfolded(trialMail as ReceivedMail)).toContain('cancel the subscription before that day');

  const active = subscriptionObject({
    id: `sub_mail_${id}`,
    organizationId: id,
    status: 'active',
    items: [{ price: 'price_ess', product: 'prod_ess' }],
  });
  await deliver(stripeEvent('customer.subscription.updated', active, trialEnd));
  const failed = stripeEvent('invoice.payment_failed', invoice(`sub_mail_${id}`, false), trialEnd + 60);
  await deliver(failed);
  await deliver(failed);
  const [paymentMail] = await mailsAbout(/payment for Test organization failed/, 1);
  expect(paymentMail?.to).toEqual(['owner@example.com']);
  expect(unfolded(paymentMail as ReceivedMail)).toContain('The plan stays in force while Stripe tries again');

  await deliver(stripeEvent('invoice.paid', invoice(`sub_mail_${id}`, true), trialEnd + 120));
  // The mails settle (a second claim would mail again): give the reaction time to act on everything delivered.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(more).toEqual([]);
  expect(inbox.received.filter((mail) => /trial ends on/.test(subjectOf(mail)))).toHaveLength(1);
  expect(inbox.received.filter((mail) => /payment for .* failed/.test(subjectOf(mail)))).toHaveLength(1);
});
