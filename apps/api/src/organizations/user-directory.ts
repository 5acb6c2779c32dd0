import { randomUUID } from 'node:crypto';
import type { CommandContext } from './command-context.js';

/**
 * The user id of a member added by e-mail address, so that the member is the user who signs in with
 * that address: the registered user's id, else the id reserved for the address, which the user takes
 * when they register (the command line, a first Google sign-in). Reserving records an event, with the
 * command's context as its metadata. The identity module provides it (from a @Global() module).
 */
export interface UserDirectory {
  userIdForEmail(email: string, context: CommandContext): Promise<string>;
}

export const USER_DIRECTORY = Symbol('USER_DIRECTORY');

/** The directory used while no module provides USER_DIRECTORY: every member gets a new id, connected to no user. */
export const noUserDirectory: UserDirectory = {
  userIdForEmail: () => Promise.resolve(randomUUID()),
};
