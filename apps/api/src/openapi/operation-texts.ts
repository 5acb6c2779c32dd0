// What each route does, in words: the one part of the OpenAPI document the code cannot say. Paths,
// parameters, bodies, statuses and access come from the controllers (controller-routes.ts).
// A new route needs an entry here, keyed `METHOD /path` in Express's pattern; the route-diff test
// (test/e2e/openapi.e2e.spec.ts) fails naming the route and its handler until it has one.

export type OperationText = {
  summary: string;
  description?: string;
  /** Answers beyond the success (and every refusal's problem+json), e.g. `{ 409: 'LIMIT_EXCEEDED: ...' }`. */
  responses?: Record<number, string>;
};

const commandAnswer = '`{id, revision, position}`: where the organization\'s stream stands after the command';

export const operationTexts: Record<string, OperationText> = {
  // Sign-in (API.md, the seed's section 7).
  'POST /login': { summary: 'Sign in with a username or e-mail address and a password', responses: { 401: 'INVALID_CREDENTIALS, the same for any wrong user or password', 429: 'RATE_LIMITED' } },
  'POST /logout': { summary: 'End the current session' },
  'POST /forgot': { summary: 'Ask for a password reset link', description: 'Answers 202 whatever the address; a known address is sent a single-use link.' },
  'POST /reset/validity': { summary: 'Whether a reset token still works, without using it' },
  'POST /reset': { summary: 'Set a new password with a reset token; ends every other session of the user', responses: { 400: 'INVALID_TOKEN: unknown, used or expired' } },
  'GET /session': { summary: 'The signed-in user and their organizations', responses: { 401: 'UNAUTHENTICATED' } },
  'GET /sessions': { summary: "The signed-in user's open sessions" },
  'DELETE /sessions': { summary: "End every session of the signed-in user but this one" },
  'DELETE /sessions/:sessionId': { summary: 'End one session of the signed-in user' },
  'GET /auth/go': { summary: "Start Google sign-in: 302 to Google's consent page", responses: { 302: "Google's consent page, or /login?error=google" } },
  'GET /auth/go/:token': { summary: "Start Google sign-in carrying the sign-in page's token", responses: { 302: "Google's consent page, or /login?error=google" } },
  'GET /auth/google/callback': {
    summary: 'Finish Google sign-in',
    responses: { 302: 'The saved redirect on success; /login?error=google or /login?error=account on a failure' },
  },
  'POST /account/password': { summary: "Change the signed-in user's password" },
  'GET /invitations/:token': { summary: 'What an invitation is for (organization, address), before it is accepted' },
  'POST /invitations/accept': { summary: 'Accept an invitation: create the account and join the organization' },

  // Organizations (API.md, Organizations).
  'POST /organizations': { summary: 'Create an organization', description: 'Answers `{id, position}`.', responses: { 409: 'ALREADY_EXISTS' } },
  'GET /organizations/:id': { summary: 'The organization read model: plans, Chorus, features, limits, usage, members, sites, domains' },
  'GET /organizations/:id/notification-recipients': { summary: 'The users the Chorus line notifies' },
  'POST /organizations/:id/plan': { summary: 'Assign a plan on a line (PlanAssigned)', description: commandAnswer },
  'POST /organizations/:id/add-ons': { summary: 'Purchase an add-on (AddOnPurchased)', description: commandAnswer },
  'DELETE /organizations/:id/add-ons/:addOn': { summary: 'Cancel an add-on (AddOnCancelled)', description: commandAnswer },
  'PUT /organizations/:id/chorus': { summary: 'Enable or disable Chorus (ChorusEnabled / ChorusDisabled)', description: commandAnswer },
  'PUT /organizations/:id/limits': { summary: 'Configure the limits (LimitsConfigured)', description: commandAnswer },
  'POST /organizations/:id/members': { summary: 'Add a member (MemberAdded); an address without an account is invited', description: commandAnswer, responses: { 409: 'LIMIT_EXCEEDED or DUPLICATE' } },
  'PATCH /organizations/:id/members/:userId': { summary: "Change a member's role", description: commandAnswer, responses: { 409: 'LAST_OWNER' } },
  'DELETE /organizations/:id/members/:userId': { summary: 'Remove a member (MemberRemoved)', description: commandAnswer, responses: { 409: 'LAST_OWNER' } },
  'POST /organizations/:id/sites': { summary: 'Add a site (SiteAdded)', description: commandAnswer, responses: { 409: 'LIMIT_EXCEEDED, FEATURE_DISABLED or NO_PLAN' } },
  'DELETE /organizations/:id/sites/:siteId': { summary: 'Remove a site (SiteRemoved)', description: commandAnswer },
  'POST /organizations/:id/quality-assurance/domains': { summary: 'Add a quality assurance domain', description: commandAnswer, responses: { 409: 'LIMIT_EXCEEDED or FEATURE_DISABLED' } },
  'DELETE /organizations/:id/quality-assurance/domains/:domain': { summary: 'Remove a quality assurance domain', description: commandAnswer },
  'POST /organizations/:id/web-analytics/domains': { summary: 'Add a web analytics domain', description: commandAnswer, responses: { 409: 'LIMIT_EXCEEDED or FEATURE_DISABLED' } },
  'DELETE /organizations/:id/web-analytics/domains/:domain': { summary: 'Remove a web analytics domain', description: commandAnswer },

  // Audit.
  'GET /organizations/:id/history': { summary: "The events of the organization's stream, oldest first, with type, data, metadata, revision, position, time" },
  'GET /organizations/:id/state': { summary: 'The organization folded up to a revision (asOfRevision) or a time (asOf)' },
  'GET /audit/correlations/:correlationId': { summary: 'Every event recorded under one correlation id' },

  // Billing.
  'POST /billing/events': {
    summary: "The payment provider's event, signed with Billing-Signature",
    responses: { 401: 'INVALID_SIGNATURE: bad or older than 5 minutes', 422: 'Unknown product id', 503: 'BILLING_WEBHOOK_SECRET is not set' },
  },

  // Operations.
  'GET /health': { summary: 'The event store, the projections and their lag; 503 until ready', responses: { 503: 'Not ready (the same report)' } },
  'GET /health/live': { summary: 'Liveness: the process answers (nothing else is checked)' },
  'GET /health/ready': { summary: 'Readiness: 200 once the store answers and the projections have caught up', responses: { 503: 'Not ready yet' } },
  'GET /metrics': {
    summary: 'Prometheus metrics (text exposition format)',
    description: 'Only with `Authorization: Bearer <METRICS_TOKEN>` when that setting is set; otherwise only to clients on this host that no proxy relays.',
    responses: { 401: 'UNAUTHENTICATED: METRICS_TOKEN is set and was not presented', 403: 'FORBIDDEN: not from this host' },
  },
  'GET /docs': { summary: 'This API, as a page for people' },
  'GET /docs/openapi.json': { summary: 'This API, as an OpenAPI 3.1 document' },
  'GET /docs/docs.css': { summary: "The reference page's stylesheet" },
};
