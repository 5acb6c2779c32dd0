import { lookupBy } from '../lookup.js';
import type { Member } from './state.js';

const byAddress = lookupBy((member: Member) => member.email.toLowerCase());

/** The member whose address this is, in any case. */
export const memberWithAddress = (
  organization: { readonly members: readonly Member[] },
  address: string,
): Member | undefined => byAddress(organization.members, address.toLowerCase());
