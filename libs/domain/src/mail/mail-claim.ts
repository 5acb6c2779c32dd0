// One mail owed, several nodes that may send it: the node that records a claim on the mail's stream (by
// expected revision, so one wins) sends; a claim older than `claimMs` means its node stopped, and another
// takes the mail over. Pure: the caller brings the clock and appends what the duty says.

/**
 * Who sends an owed mail now, as `sender` sees it at `now`: nobody (`settled`: sent, or refused for good);
 * another node whose claim holds until `until` (`theirs`); `sender` under its own claim, young enough that a
 * send started now ends before it runs out (`send`); or `sender` after claiming it anew (`claim`): no claim
 * yet, its own claim half gone (renewed, so no other node takes over mid-send), or another's that ran out.
 */
export type MailDuty = { kind: 'settled' } | { kind: 'theirs'; until: Date } | { kind: 'send' } | { kind: 'claim' };

/** The latest claim on a mail: who, and when (ISO). */
export type MailClaim = { sender: string; claimedAt: string };

export function mailClaimDuty(settled: boolean, claim: MailClaim | undefined, sender: string, now: Date, claimMs: number): MailDuty {
  if (settled) return { kind: 'settled' };
  if (claim === undefined) return { kind: 'claim' };
  const claimedAt = new Date(claim.claimedAt).getTime();
  if (claim.sender === sender) return now.getTime() < claimedAt + claimMs / 2 ? { kind: 'send' } : { kind: 'claim' };
  const until = new Date(claimedAt + claimMs);
  return until > now ? { kind: 'theirs', until } : { kind: 'claim' };
}
