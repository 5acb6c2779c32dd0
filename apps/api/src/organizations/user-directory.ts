/**
 * Injects the identity's UserDirectory (`#identity`): the user id of a member added by e-mail address,
 * the registered user's or the one reserved for the address (recording IdentifierReserved with the
 * command's context). The auth module provides it, from a @Global() module.
 */
export const USER_DIRECTORY = Symbol('USER_DIRECTORY');
