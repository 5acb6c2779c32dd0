// The billing ledger's events in words, for a correlation opened from the history ("all that one
// billing event caused"): the delivery received, then applied or superseded; Stripe's events as recorded
// on their subscription's stream.

const PROVIDER_EVENT_TYPES: Readonly<Record<string, string>> = {
  'plan.purchased': 'plan purchased',
  'addon.purchased': 'add-on purchased',
  'addon.cancelled': 'add-on cancelled',
};

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

export function billingEventSentence(type: string, data: unknown): string {
  const fields = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  switch (type) {
    case 'BillingEventReceived': {
      const what = PROVIDER_EVENT_TYPES[text(fields.type)] ?? text(fields.type);
      const quantity = fields.quantity === undefined ? '' : ` × ${text(fields.quantity)}`;
      return `Billing event received: ${what}, product ${text(fields.productId)}${quantity} (${text(fields.id)})`;
    }
    case 'BillingEventApplied':
      return 'Billing event applied to the organization';
    case 'BillingEventSuperseded':
      return `Billing event superseded by ${text(fields.supersededBy)}, not applied`;
    case 'StripeSubscriptionObserved':
      return `Stripe event received: ${text(fields.eventType)}, subscription ${text(fields.subscriptionId)} ${text(fields.status)} (${text(fields.eventId)})`;
    case 'StripeSubscriptionLinked':
      return `Stripe checkout completed: subscription ${text(fields.subscriptionId)} belongs to this organization (${text(fields.eventId)})`;
    case 'StripePaymentObserved':
      return `Stripe invoice ${fields.paid === true ? 'paid' : 'payment failed'}: subscription ${text(fields.subscriptionId)} (${text(fields.eventId)})`;
    case 'StripeEventUnmatched':
      return `Stripe event not placed (${text(fields.reason)}): ${text(fields.detail)} (${text(fields.eventId)})`;
    default:
      return type;
  }
}
