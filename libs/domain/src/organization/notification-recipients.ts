// Seed section 6: Chorus notifies an organization's users only if Chorus is enabled and either no
// parallel-use setting exists (absent or false) or the user is flagged chorusUser. Otherwise no one.
import type { Member, OrganizationState } from './state.js';

export function notificationRecipients(state: OrganizationState): Member[] {
  if (!state.exists || !state.chorus.enabled) return [];
  const members = state.members.toArray();
  return state.chorus.parallelUse !== true ? members : members.filter((member) => member.chorusUser);
}
