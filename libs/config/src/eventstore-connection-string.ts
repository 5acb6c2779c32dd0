// @eventstore/db-client 6.2.1 decides silently (credentials dropped without TLS, unknown options ignored). Never
// echoed.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/** The client's option keys, matched as it matches them: case-insensitive, `-` and `_` ignored. */
const OPTIONS = {
  tls: 'boolean',
  tlsverifycert: 'boolean',
  tlscafile: 'file',
  usercertfile: 'file',
  userkeyfile: 'file',
  nodepreference: 'node preference',
  connectionname: 'text',
  defaultdeadline: 'integer',
  maxdiscoverattempts: 'integer',
  discoveryinterval: 'integer',
  gossiptimeout: 'integer',
  keepaliveinterval: 'integer',
  keepalivetimeout: 'integer',
  throwonappendfailure: 'boolean',
} as const;

type OptionKey = keyof typeof OPTIONS;

const NODE_PREFERENCES = ['leader', 'follower', 'random', 'readonlyreplica'];

export type EventStoreConnectionOptions = {
  /** esdb+discover:// rather than esdb://. */
  discover: boolean;
  hosts: { address: string; port: number }[];
  username: string | undefined;
  /** By the client's key (flat case), as written. */
  options: Partial<Record<OptionKey, string>>;
};

const flat = (key: string): string => key.trim().toLowerCase().replace(/[_-]/g, '');

/** The client's grammar; throws naming the first part it cannot read. */
export function parseEventStoreConnectionString(value: string): EventStoreConnectionOptions {
  const text = value.trim().replace(/\/+$/, '');
  const scheme = /^(esdb|esdb\+discover):\/\//.exec(text);
  if (scheme === null) throw new Error('must start with esdb:// or esdb+discover://');
  let rest = text.slice(scheme[0].length);

  let username: string | undefined;
  // The last '@' before the options ends the credentials: one inside them is the client's mistake too.
  const at = splitOnce(rest, '?')[0].lastIndexOf('@');
  if (at !== -1) {
    const credentials = rest.slice(0, at);
    const colon = credentials.indexOf(':');
    if (colon <= 0 || colon === credentials.length - 1)
      throw new Error('credentials must be user:password@ (both URL-encoded)');
    if (credentials.indexOf('@') !== -1) throw new Error("the password contains '@': write it URL-encoded (%40)");
    if (credentials.indexOf(':', colon + 1) !== -1) {
      throw new Error("the password contains ':', which the client cuts it at: write it URL-encoded (%3A)");
    }
    username = decodeURIComponent(credentials.slice(0, colon));
    rest = rest.slice(at + 1);
  }

  const [hostPart = '', query] = splitOnce(rest.replace(/^([^?]*)\/(?=\?|$)/, '$1'), '?');
  const hosts = hostPart.split(',').map((host) => {
    const [address = '', port = '2113', ...extra] = host.trim().split(':');
    if (address === '' || /[$+!?*'(),;[\]{}|"%~#<>=&/]/.test(address))
      throw new Error(`"${host}" is not a host name or address`);
    if (extra.length > 0 || !/^\d+$/.test(port.trim())) throw new Error(`the port of ${address} is not a number`);
    return { address, port: Number(port) };
  });

  const options: Partial<Record<OptionKey, string>> = {};
  for (const pair of query === undefined ? [] : query.split('&')) {
    const [rawKey = '', rawValue] = splitOnce(pair, '=');
    const key = flat(rawKey);
    if (rawValue === undefined || rawValue.trim() === '' || key === '') throw new Error(`"${rawKey}" is not key=value`);
    if (!(key in OPTIONS)) throw new Error(`unknown option "${rawKey}" (the client would ignore it)`);
    const optionValue = rawValue.trim();
    const kind = OPTIONS[key as OptionKey];
    if (kind === 'boolean' && optionValue !== 'true' && optionValue !== 'false')
      throw new Error(`${rawKey} must be true or false`);
    if (kind === 'integer' && !/^-?\d+$/.test(optionValue)) throw new Error(`${rawKey} must be a whole number`);
    if (kind === 'node preference' && !NODE_PREFERENCES.includes(flat(optionValue))) {
      throw new Error(`${rawKey} must be leader, follower, random or readOnlyReplica`);
    }
    options[key as OptionKey] = kind === 'file' || kind === 'text' ? decodeURIComponent(optionValue) : optionValue;
  }
  return { discover: scheme[1] === 'esdb+discover', hosts, username, options };
}

/** Each problem names what to change. */
export function eventStoreConnectionStringProblems(
  value: string,
  fileExists: (path: string) => boolean = existsSync,
): string[] {
  let parsed: EventStoreConnectionOptions;
  try {
    parsed = parseEventStoreConnectionString(value);
  } catch (error) {
    return [(error as Error).message];
  }
  const { options, username } = parsed;
  const problems: string[] = [];
  const tls = options.tls;
  if (tls === undefined) {
    problems.push(
      'say tls=true or tls=false: without it the client uses TLS, which an insecure server (EVENTSTORE_INSECURE) refuses',
    );
  }
  if (options.tlsverifycert === 'false') {
    problems.push(
      "tlsVerifyCert=false has no effect in @eventstore/db-client 6.2.1: give the server's CA certificate with tlsCAFile=<path>",
    );
  }
  const certificate = options.usercertfile !== undefined || options.userkeyfile !== undefined;
  if (tls === 'false') {
    if (username !== undefined)
      problems.push(
        'the client sends no credentials without TLS: use tls=true, or remove user:password@ for an insecure server',
      );
    for (const key of ['tlscafile', 'usercertfile', 'userkeyfile'] as const) {
      if (options[key] !== undefined)
        problems.push(
          `${key === 'tlscafile' ? 'tlsCAFile' : key === 'usercertfile' ? 'userCertFile' : 'userKeyFile'} is ignored with tls=false`,
        );
    }
  }
  if (tls === 'true' && username === undefined && !certificate) {
    problems.push(
      'tls=true needs a user that may read $all: user:password@ before the host, or userCertFile and userKeyFile',
    );
  }
  if ((options.usercertfile === undefined) !== (options.userkeyfile === undefined))
    problems.push('userCertFile and userKeyFile go together');
  if (tls !== 'false') {
    for (const [key, name] of [
      ['tlscafile', 'tlsCAFile'],
      ['usercertfile', 'userCertFile'],
      ['userkeyfile', 'userKeyFile'],
    ] as const) {
      const file = options[key];
      // Relative paths are the client's too: from the working directory.
      if (file !== undefined && !fileExists(isAbsolute(file) ? file : resolve(process.cwd(), file)))
        problems.push(`${name}: no file ${file}`);
    }
  }
  return problems;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const index = text.indexOf(separator);
  return index === -1 ? [text, undefined] : [text.slice(0, index), text.slice(index + 1)];
}
