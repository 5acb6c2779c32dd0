import { Controller, Headers, HttpCode, Inject, Post, Req, type RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import type Stripe from 'stripe';
import { CONFIG, type Config } from '#config';
import { Credentials, Operation } from '../../http/operation.decorator.js';
import { stripeEventRequest, stripeReceiptAnswer } from '../billing-responses.js';
import { jsonSafe } from '../../http/json-safe.js';
import { invalidStripeSignature, stripeNotConfigured } from '../billing-problems.js';
import { StripeWebhooks, type StripeReceipt } from './stripe-webhooks.js';

export type StripeReceiptAnswer = Omit<StripeReceipt, 'position'> & { position: number | string | null };

/**
 * Verifies with the official package, against each configured secret (several during a rotation), over the
 * exact bytes received; Stripe's default tolerance (5 minutes) refuses a replayed old delivery.
 */
async function verified(
  body: Buffer,
  signature: string | undefined,
  secrets: readonly string[],
): Promise<Stripe.Event> {
  if (signature === undefined || signature === '') throw invalidStripeSignature();
  // Loaded at the first delivery, not at start-up (bench/cli): most deployments take none.
  const { default: Stripe } = await import('stripe');
  for (const secret of secrets) {
    try {
      return Stripe.webhooks.constructEvent(body, signature, secret);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
    }
  }
  throw invalidStripeSignature();
}

/** Stripe's webhook endpoint (docs/billing.md). Public: the signature is the credential. */
@Controller('billing')
export class StripeWebhookController {
  constructor(
    private readonly webhooks: StripeWebhooks,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Credentials('stripeSignature')
  @Post('stripe')
  @HttpCode(200)
  @Operation({
    summary: "Stripe's own webhook events, signed with Stripe-Signature",
    answersPosition: true,
    body: stripeEventRequest,
    answer: stripeReceiptAnswer,
    responses: {
      400: 'INVALID_SIGNATURE: missing, forged, tampered or stale',
      503: 'STRIPE_WEBHOOK_SECRET is not set',
    },
  })
  async receive(
    @Req() request: RawBodyRequest<Request>,
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<StripeReceiptAnswer> {
    const secrets = this.config.stripeWebhookSecrets;
    if (secrets.length === 0) throw stripeNotConfigured();
    const event = await verified(request.rawBody ?? Buffer.alloc(0), signature, secrets);
    const receipt = await this.webhooks.receive(event);
    return { ...receipt, position: receipt.position === null ? null : jsonSafe(receipt.position) };
  }
}
