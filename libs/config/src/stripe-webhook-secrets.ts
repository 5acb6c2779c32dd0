/** Comma-separated: during a rotation, the old and the new one. */
export function parseStripeWebhookSecrets(setting: string | undefined, problems: string[]): string[] {
  if (setting === undefined) return [];
  const secrets = setting
    .split(',')
    .map((secret) => secret.trim())
    .filter((secret) => secret !== '');
  for (const secret of secrets) {
    if (!/^whsec_[A-Za-z0-9_+/=-]{8,}$/.test(secret))
      problems.push('STRIPE_WEBHOOK_SECRET: each secret must be a Stripe endpoint secret, whsec_...');
  }
  return secrets;
}
