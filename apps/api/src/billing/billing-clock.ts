/** What time it is for signature freshness; a token so tests can pin it. */
export type BillingClock = () => Date;

export const BILLING_CLOCK = Symbol('BILLING_CLOCK');

export const systemBillingClock: BillingClock = () => new Date();
