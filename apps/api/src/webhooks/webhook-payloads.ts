// What a `standard` endpoint receives for each type, as zod schemas: the OpenAPI document's `webhooks`, and what the
// e2e tests parse real deliveries with, so the two cannot drift apart.
import { z } from 'zod';
import { ADD_ONS, LINES, MEMBER_ROLES, type WebhookEventType } from '#domain';

const integer = z.union([z.int().min(0), z.string().regex(/^\d+$/)]);

const common = {
  organizationId: z.string(),
  position: integer.describe('The event’s place in the whole log'),
  revision: integer.describe('The event’s place in its stream: the organization’s history, or for a member’s own event (sign-ins, factors, sessions) the person’s'),
  actor: z.string().describe('`user:<id>`, `api-key:<id>`, `billing`, `cli`, `system`'),
  correlationId: z.string(),
  event: z.string().describe('Chorus’s own name of the event, e.g. MemberAdded'),
  description: z.string().describe('The history’s sentence for it, as the console shows it'),
};

const role = z.enum(MEMBER_ROLES);
const domainKind = z.enum(['quality-assurance', 'web-analytics']);

const DATA: Record<WebhookEventType, z.ZodRawShape> = {
  'organization.created': { name: z.string() },
  'plan.changed': { line: z.enum(LINES), plan: z.string().nullable(), serviceLevel: z.string().optional(), endedPlan: z.string().optional() },
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
    change: z.enum(['configured', 'disabled', 'domain-pending', 'domain-verified', 'domain-record-missing', 'domain-unverified']),
    issuer: z.string().optional(),
    domains: z.array(z.string()).optional(),
    enforce: z.boolean().optional(),
    domain: z.string().optional(),
  },
  'signin_policy.changed': { twoStepRequired: z.boolean() },
  'traffic.threshold_reached': { period: z.string(), threshold: z.union([z.literal(80), z.literal(100)]), used: z.number(), allowance: z.number() },
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
  'factor.removed': { userId: z.string(), factor: z.enum(['authenticator-app', 'passkey', 'all']), authority: z.string().optional() },
  'entitlements.changed': {
    etag: z.string().describe('The OFREP bulk evaluation’s ETag after the change, with this month’s traffic as counted when it was sent'),
    changed: z.array(z.string()).describe('The flags whose value changed, e.g. limits.users'),
  },
  'session.revoked': { userId: z.string(), reason: z.enum(['signed-out', 'revoked', 'password-changed', 'password-reset']), sessions: z.int().min(1) },
};

export const webhookPayloadSchema = (type: WebhookEventType): z.ZodType =>
  z.strictObject({
    type: z.literal(type),
    timestamp: z.iso.datetime().describe('When the event was recorded'),
    data: z.strictObject({ ...common, ...DATA[type] }),
  });

export const WEBHOOK_PAYLOADS: ReadonlyArray<{ type: WebhookEventType; schema: z.ZodType }> = (Object.keys(DATA) as WebhookEventType[]).map((type) => ({
  type,
  schema: webhookPayloadSchema(type),
}));
