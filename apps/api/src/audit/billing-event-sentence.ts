// The billing ledger's events in words, for a correlation opened from the history ("all that one
// billing event caused"): the delivery received, then applied or superseded.

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
    default:
      return type;
  }
}
