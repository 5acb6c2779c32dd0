// What callers ask of an organization. Each command's type sits beside its decision
// (decisions/<command>.ts); the union is read off the table of decisions, so a new command is written
// once. Ids of new things (user, site) are chosen by the caller (the command handler), never inside the domain.
import type { OrganizationCommand } from './decisions.js';

export type { OrganizationCommand };
export type OrganizationCommandType = OrganizationCommand['type'];
/** One command by its type, e.g. `OrganizationCommandOf<'AddMember'>`. */
export type OrganizationCommandOf<Type extends OrganizationCommandType> = Extract<OrganizationCommand, { type: Type }>;
