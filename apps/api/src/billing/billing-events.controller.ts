import { Controller, Headers, HttpCode, Inject, Post, Req, type RawBodyRequest } from '@nestjs/common';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import type { Request } from 'express';
import { CONFIG, type Config } from '#config';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { jsonSafe } from '../http/json-safe.js';
import { BILLING_CLOCK, type BillingClock } from './billing-clock.js';
import { billingEventSchema } from './billing-event.schema.js';
import { billingNotConfigured, invalidSignature } from './billing-problems.js';
import { verifyBillingSignature } from './billing-signature.js';
import { ReceiveBillingEventCommand, type BillingReceipt } from './receive-billing-event.command.js';
import { Credentials, Operation } from '../http/operation.decorator.js';
import { billingReceiptAnswer } from './billing-responses.js';

export type BillingReceiptAnswer = Omit<BillingReceipt, 'revision' | 'position'> & {
  revision: number | string;
  position: number | string;
};

const validBillingEvent = new ZodValidationPipe(billingEventSchema);

/**
 * The payment provider's webhook (docs/api.md, Billing integration). Public: the signature is the credential.
 * The signature is checked over the exact bytes received, before the body is even looked at.
 */
@Controller('billing')
export class BillingEventsController {
  constructor(
    private readonly commands: MeteredCommandBus,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(BILLING_CLOCK) private readonly clock: BillingClock,
  ) {}

  @Credentials('billingSignature')
  @Post('events')
  @HttpCode(200)
  @Operation({
    summary: "The payment provider's event, signed with Billing-Signature",
    answersPosition: true,
    body: billingEventSchema,
    answer: billingReceiptAnswer,
    responses: {
      400: 'VALIDATION_FAILED: not a well-formed provider event',
      401: 'INVALID_SIGNATURE: bad or older than 5 minutes',
      422: 'Unknown product id',
      503: 'BILLING_WEBHOOK_SECRET is not set',
    },
  })
  async receive(
    @Req() request: RawBodyRequest<Request>,
    @Headers('billing-signature') signature: string | undefined,
  ): Promise<BillingReceiptAnswer> {
    const secret = this.config.billingWebhookSecret;
    if (secret === undefined) throw billingNotConfigured();
    const check = verifyBillingSignature(signature, request.rawBody ?? Buffer.alloc(0), secret, this.clock());
    if (!check.valid) throw invalidSignature(check.reason);
    const event = validBillingEvent.transform(request.body, { type: 'body' });
    const receipt = await this.commands.execute(new ReceiveBillingEventCommand(event));
    return { ...receipt, revision: jsonSafe(receipt.revision), position: jsonSafe(receipt.position) };
  }
}
