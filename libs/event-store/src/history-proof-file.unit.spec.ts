// An export with its proof, checked offline: the untouched file is proven; a line removed, changed or moved, the end
// cut, a checkpoint of another key or with a changed signature each fail, naming the line an editor would show.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { CHAIN_GENESIS, chainLink, eventDigest, type ChainedEvent } from './event-chain.js';
import { signCheckpoint } from './history-checkpoint.js';
import { checkpointLine, eventProof, ExportProofCheck, skippedLine, type ProofVerdict } from './history-proof-file.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** A log of 30 events: every third is the organization's, the others another's (and a checkpoint stream's). */
function log(): (ChainedEvent & { hash: Buffer })[] {
  const events: (ChainedEvent & { hash: Buffer })[] = [];
  const revisions = new Map<string, bigint>();
  let previous = CHAIN_GENESIS;
  for (let position = 1n; position <= 30n; position += 1n) {
    const streamId = position % 3n === 1n ? 'organization-acme' : 'organization-globex';
    const revision = revisions.get(streamId) ?? 0n;
    revisions.set(streamId, revision + 1n);
    const fields = {
      position,
      streamId,
      revision,
      id: randomUUID(),
      type: 'MemberAdded',
      recordedAt: `2026-11-28T10:00:${String(position).padStart(2, '0')}.000Z`,
      data: JSON.stringify({ userId: `u${position}`, email: { sealed: 'v1.k.abc' } }),
      metadata: JSON.stringify({ actor: 'cli' }),
    };
    previous = chainLink(previous, fields);
    events.push({ ...fields, hash: previous });
  }
  return events;
}

/** The export of organization-acme as HistoryExport writes it, signed at `signedAt`. */
function exported(signedAt = 30n, key = privateKey): string[] {
  const events = log();
  const lines: string[] = [];
  let skipped: ChainedEvent[] = [];
  let previous = CHAIN_GENESIS;
  let started = false;
  const flush = () => {
    if (skipped.length === 0) return;
    const first = skipped[0] as ChainedEvent;
    const last = skipped.at(-1) as ChainedEvent;
    lines.push(
      skippedLine({
        from: first.position.toString(),
        to: last.position.toString(),
        digests: skipped.map((event) => eventDigest(event).toString('hex')),
      }).trimEnd(),
    );
    skipped = [];
  };
  for (const event of events.filter((candidate) => candidate.position <= signedAt)) {
    if (event.streamId === 'organization-acme') {
      flush();
      const entry = {
        recordedAt: event.recordedAt,
        revision: Number(event.revision),
        position: Number(event.position),
        type: event.type,
        description: 'Member added',
      };
      lines.push(JSON.stringify({ ...entry, proof: eventProof(event, previous) }));
      started = true;
    } else if (started) skipped.push(event);
    previous = event.hash;
  }
  flush();
  const checkpoint = signCheckpoint(
    key,
    {
      id: randomUUID(),
      position: signedAt.toString(),
      hash: previous.toString('hex'),
      time: '2026-11-28T11:00:00.000Z',
    },
    'export',
  );
  lines.push(checkpointLine(checkpoint).trimEnd());
  return lines;
}

function check(lines: readonly string[], pem = publicPem): ProofVerdict {
  const checking = new ExportProofCheck(pem);
  for (const line of lines) if (!checking.line(line)) break;
  return checking.end();
}

const failsAt = (line: number, reason: string | RegExp) => ({
  proven: false,
  events: expect.any(Number),
  failure: {
    line,
    reason: typeof reason === 'string' ? expect.stringContaining(reason) : expect.stringMatching(reason),
  },
});

describe('ExportProofCheck', () => {
  it('proves an untouched export, with its other streams skipped by digest and a checkpoint past its last event', () => {
    const lines = exported(29n);
    expect(lines).toHaveLength(10 + 9 + 1 + 1);
    expect(check(lines)).toMatchObject({ proven: true, events: 10, stream: 'organization-acme' });
    expect(check(exported(28n))).toMatchObject({ proven: true, events: 10 });
  });

  it('fails on a line removed: the first, one between, or the checkpoint', () => {
    const lines = exported();
    expect(check(lines.slice(1))).toEqual(failsAt(1, 'skipped events come before the first event'));
    expect(check([...lines.slice(0, 2), ...lines.slice(3)])).toEqual(failsAt(3, 'a line between them was removed'));
    expect(check([...lines.slice(0, 2), ...lines.slice(4)])).toEqual(failsAt(3, 'a line between them was removed'));
    expect(check(lines.slice(0, -1))).toEqual(failsAt(lines.length, 'ends without its signed checkpoint'));
  });

  it('fails on a line changed: its data, its words, or a hash given again to match', () => {
    const lines = exported();
    // A line as an editor would change it: any field, however deep.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const changed = (index: number, change: (value: Record<string, any>) => void) => {
      const copy = [...lines];
      const value = JSON.parse(copy[index] as string);
      change(value);
      copy[index] = JSON.stringify(value);
      return copy;
    };
    expect(check(changed(4, (value) => (value.proof.data = value.proof.data.replace('u7', 'u8'))))).toEqual(
      failsAt(5, 'its hash does not match its bytes'),
    );
    expect(check(changed(4, (value) => (value.type = 'MemberRemoved')))).toEqual(failsAt(5, 'the line was changed'));
    // A forger who also gives the changed event its new hash breaks the link of the line after it.
    expect(
      check(
        changed(4, (value) => {
          value.proof.data = value.proof.data.replace('u7', 'u8');
          value.proof.hash = chainLink(Buffer.from(value.proof.previous, 'hex'), {
            ...value.proof,
            position: BigInt(value.proof.position),
            revision: BigInt(value.proof.revision),
          }).toString('hex');
        }),
      ),
    ).toEqual(failsAt(7, 'the hash before it is not the hash the lines above end with'));
    expect(check(changed(5, (value) => (value.skipped.digests[0] = 'f'.repeat(64))))).toEqual(
      failsAt(7, 'the hash before it is not the hash the lines above end with'),
    );
  });

  it('fails on lines moved', () => {
    const lines = exported();
    const swapped = [...lines];
    [swapped[2], swapped[4]] = [swapped[4] as string, swapped[2] as string];
    expect(check(swapped)).toEqual(failsAt(3, /line between them was removed|lines were moved/));
  });

  it('fails on a checkpoint of another key, or whose signature or position was changed', () => {
    const other = generateKeyPairSync('ed25519');
    expect(check(exported(30n, other.privateKey))).toEqual(failsAt(21, 'not by the key given'));
    const lines = exported();
    const checkpoint = JSON.parse(lines.at(-1) as string);
    checkpoint.checkpoint.time = '2026-11-28T12:00:00.000Z';
    expect(check([...lines.slice(0, -1), JSON.stringify(checkpoint)])).toEqual(
      failsAt(lines.length, 'signature does not hold'),
    );
    expect(check(exported(), other.publicKey.export({ type: 'spki', format: 'pem' }).toString())).toEqual(
      failsAt(lines.length, 'not by the key given'),
    );
  });

  it('fails on a line that is not JSON, or that carries no proof, and on a line after the checkpoint', () => {
    const lines = exported();
    expect(check(['{', ...lines])).toEqual(failsAt(1, 'it is not JSON'));
    expect(check([JSON.stringify({ type: 'MemberAdded' }), ...lines])).toEqual(failsAt(1, 'export with proof=true'));
    expect(check([...lines, lines[0] as string])).toEqual(failsAt(lines.length + 1, 'comes after the checkpoint'));
  });
});
