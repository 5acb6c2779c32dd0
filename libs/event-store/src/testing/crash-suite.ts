// The crash suite, run against each adapter that keeps its log itself: kills a process that is appending
// through the adapter with SIGKILL at a random moment, then checks that every append it had acknowledged is
// stored and that no batch is stored in part.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import type { EventStore, EventToAppend, RecordedEvent } from '../event-store.port.js';

const sourceDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = join(sourceDir, '..', '..', '..');

type Acknowledged = { stream: string; ids: string[]; revision: string; position: string };
type CrashTested = { batch: number; index: number; size: number; batchId: string };

/** The adapter's sources compiled as they are now, where the child can import them with the repo's packages. */
function compileAdapter(outDir: string): string {
  const sources = readdirSync(sourceDir, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.startsWith('testing'),
  );
  for (const file of sources) {
    const source = ts.sys.readFile(join(sourceDir, file)) ?? '';
    const { outputText } = ts.transpileModule(source, {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
    });
    const target = join(outDir, file.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  // node_modules is a package boundary: say that these files are ES modules.
  writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }');
  return join(outDir, 'index.js');
}

/** Runs the writer until it has acknowledged `killAfter` appends, then SIGKILLs it. */
async function crashWriter(entry: string, writerArgs: readonly string[], killAfter: number): Promise<Acknowledged[]> {
  const child = spawn(process.execPath, [join(sourceDir, 'testing', 'crash-writer.mjs'), entry, ...writerArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acknowledged: Acknowledged[] = [];
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  let cutShort: string | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    // The kill can cut the writer's last line short (a pipe write may land in parts): that append was never
    // reported, so it is owed nothing. Any line after a cut one would be a real fault.
    if (cutShort !== undefined) throw new Error(`a line after an unreadable one: ${cutShort}`);
    let parsed: Acknowledged;
    try {
      parsed = JSON.parse(line) as Acknowledged;
    } catch {
      cutShort = line;
      continue;
    }
    acknowledged.push(parsed);
    if (acknowledged.length === killAfter) {
      // Somewhere in the next few appends, often in the middle of a commit.
      setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 5));
    }
  }
  const signal = await exited;
  if (signal !== 'SIGKILL') throw new Error(`the writer stopped on its own (${String(signal)}): ${errors}`);
  return acknowledged;
}

/** One log for one run: the writer's arguments after the adapter entry, and how the test opens the same log. */
export type CrashTarget = { writerArgs: readonly string[]; open(): Promise<EventStore>; dispose(): Promise<void> };

export function describeCrashSuite(
  name: string,
  newTarget: () => Promise<CrashTarget>,
  options: { skip?: string } = {},
): void {
  (options.skip === undefined ? describe : describe.skip)(`${name} after a crash (SIGKILL while appending)`, () =>
    suite(newTarget),
  );
}

function suite(newTarget: () => Promise<CrashTarget>): void {
  const buildDir = join(repositoryRoot, 'node_modules', '.cache', `chorus-event-store-crash-${process.pid}`);
  const targets: CrashTarget[] = [];
  let entry = '';

  beforeAll(() => {
    rmSync(buildDir, { recursive: true, force: true });
    entry = compileAdapter(buildDir);
  });

  afterAll(() => {
    rmSync(buildDir, { recursive: true, force: true });
  });

  afterAll(async () => {
    for (const target of targets) await target.dispose();
  });

  it.each([1, 2, 3])('keeps every acknowledged append and no partial batch (run %i)', async () => {
    const target = await newTarget();
    targets.push(target);
    const killAfter = 20 + Math.floor(Math.random() * 400);

    const acknowledged = await crashWriter(entry, target.writerArgs, killAfter);
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter);

    const store = await target.open();
    try {
      const all = await store.readAll();
      const byId = new Map(all.map((event) => [event.id, event]));
      for (const append of acknowledged) {
        const stored = append.ids.map((id) => byId.get(id));
        expect(stored.every((event) => event?.streamId === append.stream)).toBe(true);
        expect(String(stored[stored.length - 1]?.revision)).toBe(append.revision);
        expect(String(stored[stored.length - 1]?.position)).toBe(append.position);
      }

      const batches = new Map<string, RecordedEvent[]>();
      for (const event of all) {
        const { batchId } = event.data as CrashTested;
        batches.set(batchId, [...(batches.get(batchId) ?? []), event]);
      }
      for (const batch of batches.values()) {
        expect(batch.map((event) => (event.data as CrashTested).index)).toEqual(
          Array.from({ length: (batch[0]?.data as CrashTested).size }, (_, index) => index),
        );
      }
      expect(all.map((event) => event.position)).toEqual(all.map((_, index) => BigInt(index + 1)));

      const streams = new Set(all.map((event) => event.streamId));
      for (const stream of streams) {
        const read = await store.readStream(stream);
        const revisions = read.found ? read.events.map((event) => event.revision) : [];
        expect(revisions).toEqual(revisions.map((_, index) => BigInt(index)));
        const next: EventToAppend = {
          id: randomUUID(),
          type: 'AfterCrash',
          data: {},
          metadata: { actor: 'system', correlationId: 'x', causationId: 'x' },
        };
        await expect(store.append(stream, [next], BigInt(revisions.length - 1))).resolves.toMatchObject({
          nextExpectedRevision: BigInt(revisions.length),
        });
      }
    } finally {
      await store.close();
    }
  });
}
