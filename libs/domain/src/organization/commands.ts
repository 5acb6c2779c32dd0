// What callers ask of an organization. Each command's type sits beside its decision
// (decisions/<command>.ts); the union is read off the table of decisions, so a new command is written
// once. Ids of new things (user, site) are chosen by the caller (the command handler), never inside the domain.
import type { decisions } from './decisions.js';

type Decisions = typeof decisions;

export type OrganizationCommand = { [Type in keyof Decisions]: Parameters<Decisions[Type]>[0] }[keyof Decisions];
export type OrganizationCommandType = OrganizationCommand['type'];
/** One command by its type, e.g. `OrganizationCommandOf<'AddMember'>`. */
export type OrganizationCommandOf<Type extends OrganizationCommandType> = Extract<OrganizationCommand, { type: Type }>;
