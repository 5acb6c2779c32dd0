// One claim wins by expected revision; a claim older than `claimMs` means its node stopped, and another takes over.

/** A sender renews its own claim once half gone, so no other node takes over mid-send. */
export type MailDuty = { kind: 'settled' } | { kind: 'theirs'; until: Date } | { kind: 'send' } | { kind: 'claim' };

export type MailClaim = { sender: string; claimedAt: string };

export function mailClaimDuty(
  settled: boolean,
  claim: MailClaim | undefined,
  sender: string,
  now: Date,
  claimMs: number,
): MailDuty {
  if (settled) return { kind: 'settled' };
  if (claim === undefined) return { kind: 'claim' };
  const claimedAt = new Date(claim.claimedAt).getTime();
  if (claim.sender === sender) return now.getTime() < claimedAt + claimMs / 2 ? { kind: 'send' } : { kind: 'claim' };
  const until = new Date(claimedAt + claimMs);
  return until > now ? { kind: 'theirs', until } : { kind: 'claim' };
}
