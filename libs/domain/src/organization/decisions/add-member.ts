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
  if (state.members.has(userId)) {
    throw new DomainError('DUPLICATE', `User ${userId} is already a member.`, { field: 'userId', value: userId });
  }
  if (memberWithAddress(state, email) !== undefined) {
    throw new DomainError('DUPLICATE', `${email} is already a member.`, { field: 'email', value: email });
  }
  const refusal = refusalToAdd(state, 'users', catalogue, role);
  if (refusal) throw refusal;
  return [{ type: 'MemberAdded', data: { userId, email, role, chorusUser } }];
}

/** The same user added again takes a new place at the end: a member is never held twice. */
export function withMemberAdded(state: ExistingOrganization, { data }: MemberAdded): ExistingOrganization {
  const { userId, email, role, chorusUser } = data;
  return { ...state, members: state.members.with({ userId, email, role, chorusUser }) };
}

/** Several members added one after another, as `withMemberAdded` one at a time, in one batch. */
export function withMembersAdded(state: ExistingOrganization, added: readonly MemberAdded[]): ExistingOrganization {
  const members = state.members.withAll(
    added.map(({ data: { userId, email, role, chorusUser } }) => ({ userId, email, role, chorusUser })),
  );
  return { ...state, members };
}
