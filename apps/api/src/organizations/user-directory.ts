/**
 * Finds the user id behind an e-mail address, so that a member added by address is the user who
 * signs in with it. The identity module provides it (from a @Global() module); without one, every
 * new member gets a new id.
 */
export interface UserDirectory {
  findUserIdByEmail(email: string): Promise<string | undefined>;
}

export const USER_DIRECTORY = Symbol('USER_DIRECTORY');

/** The directory used while no module provides USER_DIRECTORY: it knows no one. */
export const noUserDirectory: UserDirectory = {
  findUserIdByEmail: () => Promise.resolve(undefined),
};
