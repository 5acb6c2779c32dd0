// What a `standard` endpoint receives for each type, as zod schemas: the OpenAPI document's `webhooks`, and what the
// e2e tests parse real deliveries with, so the two cannot drift apart.
import { z } from 'zod';
import { ADD_ONS, LINES, MEMBER_ROLES, type WebhookEventType } from '#domain';

const integer = z.union([z.int().min(0), z.string().regex(/^\d+$/)]);

const common = {
  organizationId: z.string(),
  position: integer.describe('The event’s place in the whole log'),
  revision: integer.describe(
    'The event’s place in its stream: the organization’s history, or for a member’s own event (sign-ins, factors, sessions) the person’s',
  ),
  actor: z.string().describe('`user:<id>`, `api-key:<id>`, `billing`, `cli`, `system`'),
  correlationId: z.string(),
  event: z.string().describe('Chorus’s own name of the event, e.g. MemberAdded'),
  description: z.string().describe('The history’s sentence for it, as the console shows it'),
};

const role = z.enum(MEMBER_ROLES);
const domainKind = z.enum(['quality-assurance', 'web-analytics']);

const DATA: Record<WebhookEventType, z.ZodRawShape> = {
  'organization.created': { name: z.string() },
  'plan.changed': {
    line: z.enum(LINES),
    plan: z.string().nullable(),
    serviceLevel: z.string().optional(),
    endedPlan: z.string().optional(),
  },
  'addon.purchased': { addOn: z.enum(ADD_ONS), quantity: z.int() },
  'addon.cancelled': { addOn: z.enum(ADD_ONS), quantity: z.int() },
  'member.added': { userId: z.string(), email: z.string(), role },
  'member.removed': { userId: z.string() },
  'member.role_changed': { userId: z.string(), role, previousRole: role },
  'site.added': { siteId: z.string(), name: z.string(), hostname: z.string() },
  'site.removed': { siteId: z.string() },
  'domain.added': { domain: z.string(), kind: domainKind },
  'domain.removed': { domain: z.string(), kind: domainKind },
  'sso.changed': {
    change: z.enum([
      'configured',
      'disabled',
      'domain-pending',
      'domain-verified',
      'domain-record-missing',
      'domain-unverified',
      'domain-join',
    ]),
    issuer: z.string().optional(),
    domains: z.array(z.string()).optional(),
    enforce: z.boolean().optional(),
    domain: z.string().optional(),
    join: z.enum(['invitation', 'automatic']).optional(),
    role: z.enum(['admin', 'auditor', 'member']).optional(),
  },
  'signin_policy.changed': { twoStepRequired: z.boolean() },
  'traffic.threshold_reached': {
    period: z.string(),
    threshold: z.union([z.literal(80), z.literal(100)]),
    used: z.number(),
    allowance: z.number(),
  },
  'person.erased': { userId: z.string() },
  'signin.succeeded': {
    userId: z.string(),
    method: z.enum(['password', 'google', 'invitation', 'sso', 'two-step']),
    secondStep: z.enum(['authenticator-app', 'passkey', 'recovery-code', 'enrolment']).optional(),
  },
  'signin.failed': {
    userId: z.string(),
    step: z.enum(['password', 'second-step']),
    reason: z.string().optional(),
    secondStep: z.enum(['authenticator-app', 'passkey', 'recovery-code']).optional(),
  },
  'factor.added': { userId: z.string(), factor: z.enum(['authenticator-app', 'passkey', 'recovery-codes']) },
  'factor.removed': {
    userId: z.string(),
    factor: z.enum(['authenticator-app', 'passkey', 'all']),
    authority: z.string().optional(),
  },
  'entitlements.changed': {
    etag: z
      .string()
      .describe(
        'The OFREP bulk evaluation’s ETag after the change, with this month’s traffic as counted when it was sent',
      ),
    changed: z.array(z.string()).describe('The flags whose value changed, e.g. limits.users'),
  },
  'session.revoked': {
    userId: z.string(),
    reason: z.enum(['signed-out', 'revoked', 'password-changed', 'password-reset']),
    sessions: z.int().min(1),
  },
};

export const webhookPayloadSchema = (type: WebhookEventType): z.ZodType =>
  z.strictObject({
    type: z.literal(type),
    timestamp: z.iso.datetime().describe('When the event was recorded'),
    data: z.strictObject({ ...common, ...DATA[type] }),
  });

const ADA = '6a1f0c9e-2b3d-4e5f-8a7b-8c9d0e1f2a3b';
const OWNER = `user:${'2b7c4f0a-9e1d-4c5b-8a9f-0e1d2c3b4a59'}`;
type Example = { event: string; description: string; actor?: string; fields: Record<string, unknown> };

/** One body per type, in docs/webhooks.md's words; a test parses each with its schema. */
const EXAMPLES: Record<WebhookEventType, Example> = {
  'organization.created': {
    event: 'OrganizationCreated',
    description: 'Organization created: Acme',
    actor: 'cli',
    fields: { name: 'Acme' },
  },
  'plan.changed': {
    event: 'PlanAssigned',
    description: 'Plan assigned: Chorus Teams',
    actor: 'billing',
    fields: { line: 'chorus', plan: 'teams' },
  },
  'addon.purchased': {
    event: 'AddOnPurchased',
    description: 'Add-on purchased: Quality assurance',
    actor: 'billing',
    fields: { addOn: 'qualityAssurance', quantity: 1 },
  },
  'addon.cancelled': {
    event: 'AddOnCancelled',
    description: 'Add-on cancelled: Quality assurance',
    actor: 'billing',
    fields: { addOn: 'qualityAssurance', quantity: 1 },
  },
  'member.added': {
    event: 'MemberAdded',
    description: 'Member added: ada@acme.example as Admin',
    fields: { userId: ADA, email: 'ada@acme.example', role: 'admin' },
  },
  'member.removed': {
    event: 'MemberRemoved',
    description: 'Member removed: ada@acme.example',
    fields: { userId: ADA },
  },
  'member.role_changed': {
    event: 'MemberRoleChanged',
    description: 'Role changed: ada@acme.example from Member to Admin',
    fields: { userId: ADA, role: 'admin', previousRole: 'member' },
  },
  'site.added': {
    event: 'SiteAdded',
    description: 'Site added: docs (docs.acme.example)',
    fields: { siteId: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e', name: 'docs', hostname: 'docs.acme.example' },
  },
  'site.removed': {
    event: 'SiteRemoved',
    description: 'Site removed: docs (docs.acme.example)',
    fields: { siteId: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e' },
  },
  'domain.added': {
    event: 'QualityAssuranceDomainAdded',
    description: 'QA domain added: qa.acme.example',
    fields: { domain: 'qa.acme.example', kind: 'quality-assurance' },
  },
  'domain.removed': {
    event: 'WebAnalyticsDomainRemoved',
    description: 'Web analytics domain removed: acme.example',
    fields: { domain: 'acme.example', kind: 'web-analytics' },
  },
  'sso.changed': {
    event: 'SsoConfigured',
    description: 'Single sign-on configured: https://id.acme.example',
    fields: { change: 'configured', issuer: 'https://id.acme.example', domains: ['acme.example'], enforce: true },
  },
  'signin_policy.changed': {
    event: 'TwoStepSignInPolicySet',
    description: 'Two-step sign-in required',
    fields: { twoStepRequired: true },
  },
  'traffic.threshold_reached': {
    event: 'TrafficThresholdReached',
    description: 'Traffic reached 80% of the month’s allowance',
    actor: 'system',
    fields: { period: '2026-11', threshold: 80, used: 80_000, allowance: 100_000 },
  },
  'person.erased': {
    event: 'MemberErased',
    description: 'A person’s personal data was erased',
    actor: 'system',
    fields: { userId: ADA },
  },
  'signin.succeeded': {
    event: 'SecondStepPassed',
    description: 'ada@acme.example signed in, the second step with a passkey',
    fields: { userId: ADA, method: 'two-step', secondStep: 'passkey' },
  },
  'signin.failed': {
    event: 'SignInAttemptFailed',
    description: 'Sign-in failed for ada@acme.example: wrong password',
    fields: { userId: ADA, step: 'password', reason: 'wrong-password' },
  },
  'factor.added': {
    event: 'AuthenticatorAppEnrolled',
    description: 'ada@acme.example added an authenticator app as a second factor',
    fields: { userId: ADA, factor: 'authenticator-app' },
  },
  'factor.removed': {
    event: 'PasskeyRemoved',
    description: 'ada@acme.example no longer has a passkey as a second factor',
    fields: { userId: ADA, factor: 'passkey' },
  },
  'session.revoked': {
    event: 'SignedOut',
    description: 'A session of ada@acme.example ended from another session',
    fields: { userId: ADA, reason: 'revoked', sessions: 1 },
  },
  'entitlements.changed': {
    event: 'MemberAdded',
    description: 'Entitlements changed: limits.users',
    fields: { etag: '"k3Jv9QmX0bq1YfZp2cA7Rw"', changed: ['limits.users'] },
  },
};

export function webhookExample(type: WebhookEventType): {
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
} {
  const { event, description, actor = OWNER, fields } = EXAMPLES[type];
  const common = {
    organizationId: 'c0ffee00-1234-4abc-9def-0123456789ab',
    position: 1042,
    revision: 17,
    actor,
    correlationId: '0f3c1d2e-5b6a-4c7d-8e9f-0a1b2c3d4e5f',
  };
  return { type, timestamp: '2026-11-25T10:00:00.000Z', data: { ...common, event, description, ...fields } };
}

export type WebhookPayloadDescription = { type: WebhookEventType; schema: z.ZodType; example: unknown };

export const WEBHOOK_PAYLOADS: readonly WebhookPayloadDescription[] = (Object.keys(DATA) as WebhookEventType[]).map(
  (type) => ({
    type,
    schema: webhookPayloadSchema(type),
    example: webhookExample(type),
  }),
);
