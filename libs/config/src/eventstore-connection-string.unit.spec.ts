import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { EventStoreDBClient } from '@eventstore/db-client';
import { eventStoreConnectionStringProblems, parseEventStoreConnectionString } from './eventstore-connection-string.js';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'chorus-esdb-tls-'));
const caFile = path.join(directory, 'ca.crt');
const certFile = path.join(directory, 'user.crt');
const keyFile = path.join(directory, 'user.key');
for (const file of [caFile, certFile, keyFile]) fs.writeFileSync(file, 'not checked by the parser\n');

afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

/** The client's own parser (it throws on what it cannot read; it does not connect). */
async function clientAccepts(connectionString: string): Promise<boolean> {
  try {
    const client = EventStoreDBClient.connectionString(connectionString);
    await client.dispose();
    return true;
  } catch {
    return false;
  }
}

describe('EVENTSTORE_CONNECTION_STRING', () => {
  it.each([
    ['the compose file’s insecure node', 'esdb://eventstore:2113?tls=false'],
    [
      'an insecure three-node cluster, leader preferred',
      'esdb://eventstore-1:2113,eventstore-2:2113,eventstore-3:2113?tls=false&nodePreference=leader',
    ],
    [
      'a secure cluster found by DNS, a user, its CA',
      `esdb+discover://chorus:p%40ss%3Aword@cluster.example:2113?tls=true&tlsCAFile=${caFile}`,
    ],
    [
      'a secure node with options in any case',
      `esdb://chorus:secret@localhost:2113/?TLS=true&tls_ca_file=${caFile}&keepAliveInterval=10000&connectionName=chorus-api`,
    ],
  ])('accepts %s, as the client does', async (_label, connectionString) => {
    expect(eventStoreConnectionStringProblems(connectionString)).toEqual([]);
    expect(await clientAccepts(connectionString)).toBe(true);
  });

  it('accepts a client certificate instead of a password (the client then loads the key pair itself)', () => {
    expect(
      eventStoreConnectionStringProblems(
        `esdb://localhost:2113?tls=true&userCertFile=${certFile}&userKeyFile=${keyFile}&tlsCAFile=${caFile}`,
      ),
    ).toEqual([]);
  });

  it('reads hosts, ports, the user and options as the client does', () => {
    expect(
      parseEventStoreConnectionString(
        'esdb+discover://chorus:p%40ss@a.example,b.example:2114?tls=true&nodePreference=Follower',
      ),
    ).toEqual({
      discover: true,
      hosts: [
        { address: 'a.example', port: 2113 },
        { address: 'b.example', port: 2114 },
      ],
      username: 'chorus',
      options: { tls: 'true', nodepreference: 'Follower' },
    });
  });

  it.each([
    ['another scheme', 'kurrentdb://localhost:2113?tls=false', /must start with esdb:\/\/ or esdb\+discover:\/\//],
    ['a port that is no number', 'esdb://localhost:port?tls=false', /port of localhost is not a number/],
    ['no host', 'esdb://?tls=false', /is not a host name/],
    ['a flag that is neither true nor false', 'esdb://localhost:2113?tls=maybe', /tls must be true or false/],
    [
      'an unknown node preference',
      'esdb://localhost:2113?tls=false&nodePreference=nearest',
      /leader, follower, random or readOnlyReplica/,
    ],
    ['a number that is none', 'esdb://localhost:2113?tls=false&keepAliveInterval=often', /whole number/],
  ])('refuses %s, which the client cannot read either', async (_label, connectionString, problem) => {
    expect(eventStoreConnectionStringProblems(connectionString)).toEqual([expect.stringMatching(problem)]);
    expect(await clientAccepts(connectionString)).toBe(false);
  });

  it.each([
    ['no tls at all (the client then uses TLS)', 'esdb://eventstore:2113', /say tls=true or tls=false/],
    [
      'tlsVerifyCert=false (a no-op in 6.2.1)',
      `esdb://chorus:secret@eventstore:2113?tls=true&tlsVerifyCert=false&tlsCAFile=${caFile}`,
      /tlsVerifyCert=false has no effect.*tlsCAFile=<path>/,
    ],
    [
      'credentials without TLS (the client drops them)',
      'esdb://chorus:secret@eventstore:2113?tls=false',
      /sends no credentials without TLS/,
    ],
    [
      'a CA file without TLS',
      `esdb://eventstore:2113?tls=false&tlsCAFile=${caFile}`,
      /tlsCAFile is ignored with tls=false/,
    ],
    ['TLS without any user', `esdb://eventstore:2113?tls=true&tlsCAFile=${caFile}`, /needs a user that may read \$all/],
    [
      'a CA file that is not there',
      'esdb://chorus:secret@eventstore:2113?tls=true&tlsCAFile=/nowhere/ca.crt',
      /tlsCAFile: no file \/nowhere\/ca.crt/,
    ],
    [
      'a certificate without its key',
      `esdb://eventstore:2113?tls=true&userCertFile=${certFile}`,
      /userCertFile and userKeyFile go together/,
    ],
    [
      'an option the client would ignore',
      'esdb://eventstore:2113?tls=false&tlsVerify=true',
      /unknown option "tlsVerify"/,
    ],
    [
      "a password with ':', which the client cuts short",
      'esdb://chorus:pa:ss@eventstore:2113?tls=true',
      /URL-encoded \(%3A\)/,
    ],
    ["a password with '@'", 'esdb://chorus:p@ss@eventstore:2113?tls=true', /URL-encoded \(%40\)/],
  ])('names the problem with %s, which the client would accept silently', (_label, connectionString, problem) => {
    expect(eventStoreConnectionStringProblems(connectionString)).toContainEqual(expect.stringMatching(problem));
  });

  it('never repeats the password in a problem', () => {
    const problems = [
      ...eventStoreConnectionStringProblems('esdb://chorus:s3cr3t-pw@eventstore:2113'),
      ...eventStoreConnectionStringProblems('esdb://chorus:s3cr3t-pw@eventstore:port?tls=true'),
      ...eventStoreConnectionStringProblems('esdb://chorus:s3cr3t-pw@eventstore:2113?tls=false'),
    ];

    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).not.toContain('s3cr3t-pw');
  });
});
