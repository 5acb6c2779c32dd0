// The invitation reaction's limit on one organization's mails (docs/service.md, Invitations): counted
// by each node for itself, since the mails of an hour are what it sent; over it, a mail waits, never dropped.

/** Invitation mails one organization sends per hour (on this node). */
export const INVITATION_MAILS_PER_ORGANIZATION_HOUR = 200;

const HOUR_MS = 3_600_000;

/** When each organization's mails of the last hour were sent, in milliseconds since the epoch. */
export class OrganizationMailWindow {
  private readonly sent = new Map<string, number[]>();

  constructor(private readonly perHour = INVITATION_MAILS_PER_ORGANIZATION_HOUR) {}

  /** 0 when the organization may mail at `now`, else how many milliseconds until it may. */
  waitFor(organizationId: string, now: number): number {
    const recent = (this.sent.get(organizationId) ?? []).filter((at) => now - at < HOUR_MS);
    if (recent.length === 0) this.sent.delete(organizationId);
    else this.sent.set(organizationId, recent);
    const oldest = recent[recent.length - this.perHour];
    return oldest === undefined ? 0 : oldest + HOUR_MS - now;
  }

  /** Counts a mail at `now` (before it is tried, so that mails in parallel count); answers how to take it back. */
  take(organizationId: string, now: number): () => void {
    this.sent.set(organizationId, [...(this.sent.get(organizationId) ?? []), now]);
    return () => {
      const mails = this.sent.get(organizationId) ?? [];
      if (mails.includes(now)) mails.splice(mails.lastIndexOf(now), 1);
    };
  }
}
