// The billing endpoint's refusals, each with a stable code (docs/api.md, Errors and Billing integration).
import type { DomainError } from '#domain';
import { ProblemError } from '../http/problem-error.js';
import type { SignatureRefusal } from './billing-signature.js';

const signatureDetails: Record<SignatureRefusal, string> = {
  missing: 'The Billing-Signature header is missing.',
  malformed: 'The Billing-Signature header is not of the form t=<unix seconds>,v1=<hex HMAC-SHA256>.',
  mismatch: 'The signature does not match the body.',
  stale: 'The signature is more than 5 minutes old.',
  future: 'The signature is dated more than 5 minutes ahead.',
};

export const billingNotConfigured = (): ProblemError =>
  new ProblemError(
    503,
    'BILLING_NOT_CONFIGURED',
    'Billing is not configured',
    'BILLING_WEBHOOK_SECRET is not set: billing events cannot be verified.',
  );

export const invalidSignature = (reason: SignatureRefusal): ProblemError =>
  new ProblemError(401, 'INVALID_SIGNATURE', 'The billing signature is not valid', signatureDetails[reason]);

export const unknownProduct = (productId: string): ProblemError =>
  new ProblemError(422, 'UNKNOWN_PRODUCT', 'Unknown product', `No plan or add-on is sold as product ${productId}.`, {
    productId,
  });

export const productMismatch = (productId: string, type: string, kind: string): ProblemError =>
  new ProblemError(
    422,
    'PRODUCT_MISMATCH',
    'The product does not fit the event',
    `Product ${productId} is ${kind === 'plan' ? 'a plan' : 'an add-on'}, which a ${type} event cannot carry.`,
    {
      productId,
    },
  );

export const unknownOrganization = (organizationId: string): ProblemError =>
  new ProblemError(422, 'UNKNOWN_ORGANIZATION', 'Unknown organization', `No organization ${organizationId} exists.`, {
    organizationId,
  });

/**
 * The organization refuses the change now (e.g. cancelling an add-on it does not have): the provider's retry may
 * succeed later.
 */
export const notApplicable = (error: DomainError): ProblemError =>
  new ProblemError(409, 'BILLING_EVENT_NOT_APPLICABLE', 'The billing event cannot be applied now', error.message, {
    reason: error.code,
    ...error.details,
  });

export const stripeNotConfigured = (): ProblemError =>
  new ProblemError(
    503,
    'BILLING_NOT_CONFIGURED',
    'Stripe is not configured',
    'STRIPE_WEBHOOK_SECRET is not set: Stripe events cannot be verified.',
  );

/** Stripe's own words are not passed on: they would tell a forger which check failed. */
export const invalidStripeSignature = (): ProblemError =>
  new ProblemError(
    400,
    'INVALID_SIGNATURE',
    'The Stripe signature is not valid',
    'The Stripe-Signature header is missing, does not match the body for any configured secret, or is too old.',
  );
