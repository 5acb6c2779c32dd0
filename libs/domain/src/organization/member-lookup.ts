import type { Member, Members } from './members.js';

/** The member whose address this is, in any case. */
export const memberWithAddress = (organization: { readonly members: Members }, address: string): Member | undefined =>
  organization.members.withAddress(address);
