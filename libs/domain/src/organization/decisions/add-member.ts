import { DomainError } from '../../errors.js';
import { refusalToAdd } from '../../limits/refusal-to-add.js';
import type { DecideContext } from '../decide-context.js';
import type { ExistingOrganization } from '../state.js';
import { memberWithAddress } from '../member-lookup.js';
import { MEMBER_ROLES, type MemberRole } from '../member-roles.js';
import { optionalBoolean, requireEmailAddress, requireIdentifier, requireOneOf } from '../command-validation.js';

export type AddMember = {
  type: 'AddMember';
  data: { userId: string; email: string; role: MemberRole; chorusUser?: boolean };
};

export type MemberAdded = {
  type: 'MemberAdded';
  data: { userId: string; email: string; role: MemberRole; chorusUser: boolean };
};

export function addMember(
  command: AddMember,
  state: ExistingOrganization,
  { catalogue }: DecideContext,
): MemberAdded[] {
  const userId = requireIdentifier('userId', command.data.userId);
  const email = requireEmailAddress('email', command.data.email);
  const role = requireOneOf('role', command.data.role, MEMBER_ROLES);
  const chorusUser = optionalBoolean('chorusUser', command.data.chorusUser) ?? false;
  if (state.members.some((member) => member.userId === userId)) {
    throw new DomainError('DUPLICATE', `User ${userId} is already a member.`, { field: 'userId', value: userId });
  }
  if (memberWithAddress(state, email) !== undefined) {
    throw new DomainError('DUPLICATE', `${email} is already a member.`, { field: 'email', value: email });
  }
  const refusal = refusalToAdd(state, 'users', catalogue, role);
  if (refusal) throw refusal;
  return [{ type: 'MemberAdded', data: { userId, email, role, chorusUser } }];
}

/** The same user added again replaces the earlier entry: a member is never held twice. */
export function withMemberAdded(state: ExistingOrganization, { data }: MemberAdded): ExistingOrganization {
  const { userId, email, role, chorusUser } = data;
  const others = state.members.filter((member) => member.userId !== userId);
  return { ...state, members: [...others, { userId, email, role, chorusUser }] };
}

/**
 * Several members added one after another, with one new list for all of them rather than one per member: folding a
 * directory's thousands of additions one by one copies the list each time, and so grows with its square. The same
 * rule as `withMemberAdded`, which stays the cheaper way for one (evolve-fold.unit.spec.ts holds the two together).
 */
export function withMembersAdded(state: ExistingOrganization, added: readonly MemberAdded[]): ExistingOrganization {
  // A Map keeps insertion order: deleting first puts the person added again at the end, as a new entry.
  const byUser = new Map(state.members.map((member) => [member.userId, member]));
  for (const { data } of added) {
    const { userId, email, role, chorusUser } = data;
    byUser.delete(userId);
    byUser.set(userId, { userId, email, role, chorusUser });
  }
  return { ...state, members: [...byUser.values()] };
}

/** How many members there are after each of `added` in turn, as `withMembersAdded` holds them: nobody counted twice. */
export function memberCountsAfterEach(state: ExistingOrganization, added: readonly MemberAdded[]): number[] {
  const userIds = new Set(state.members.map((member) => member.userId));
  return added.map(({ data }) => userIds.add(data.userId).size);
}
