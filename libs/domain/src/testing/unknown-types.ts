// A command and an event type that no stream will ever have, for the tests of what meets an unknown one: a name
// like `RenameOrganization` is the next feature's, and would break them the day it is added.
export const UNKNOWN_COMMAND_TYPE = 'NoSuchCommand§';
export const UNKNOWN_EVENT_TYPE = 'NoSuchEvent§';
