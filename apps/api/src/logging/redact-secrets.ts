// Credentials never reach a log line: a field with one of these names is censored at the top of a line's object and
// two levels below. One walk copying only the objects on the way to a secret, cheaper than pino's wildcard paths.
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'newPassword',
  'token',
  'secret',
  'apiKey',
  'key',
  'sessionSecret',
  'historySigningKey',
  'clientSecret',
  'client_secret',
  'code_verifier',
  'x-xsrf-token',
]);

export const CENSORED = '[REDACTED]';

/** Logs carry ids, never a person's address (docs/privacy.md), whatever text quotes one. */
const PERSONAL_FIELDS: ReadonlySet<string> = new Set(['email', 'username']);
const ADDRESS = /[^\s@<>"',;:()[\]]+@[^\s@<>"',;:()[\]]+/g;
export const ADDRESS_REMOVED = '[address]';
export const withoutAddresses = (text: string): string =>
  text.includes('@') ? text.replace(ADDRESS, ADDRESS_REMOVED) : text;

/** Levels of keys looked at: the line's own fields, theirs, and theirs (pino's `*.*["field"]`). */
const DEPTH = 3;

/** The object with every secret field censored; the same object when it holds none (never changed in place). */
export function redactSecrets<T extends object>(value: T): T {
  return redact(value, DEPTH) as T;
}

function redact(value: object, depth: number): object {
  // An error's message and stack are not fields: an address quoted there is removed on a copy too.
  let copy: Record<string, unknown> | unknown[] | undefined =
    value instanceof Error &&
    withoutAddresses(`${value.message}\n${value.stack ?? ''}`) !== `${value.message}\n${value.stack ?? ''}`
      ? copyOf(value)
      : undefined;
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const field = source[key];
    let replaced: unknown = field;
    if (SECRET_FIELDS.has(key) || PERSONAL_FIELDS.has(key)) replaced = CENSORED;
    else if (typeof field === 'string') replaced = withoutAddresses(field);
    else if (depth > 1 && typeof field === 'object' && field !== null) replaced = redact(field, depth - 1);
    if (replaced === field) continue;
    copy ??= copyOf(value);
    (copy as Record<string, unknown>)[key] = replaced;
  }
  return copy ?? value;
}

/** A shallow copy to censor; an Error stays an Error, with its message and stack (not enumerable). */
function copyOf(value: object): Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return [...(value as unknown[])];
  if (value instanceof Error) {
    const error = Object.create(Object.getPrototypeOf(value) as object) as Record<string, unknown>;
    const stack = value.stack === undefined ? undefined : withoutAddresses(value.stack);
    return Object.assign(error, value, { name: value.name, message: withoutAddresses(value.message), stack });
  }
  return { ...(value as Record<string, unknown>) };
}
