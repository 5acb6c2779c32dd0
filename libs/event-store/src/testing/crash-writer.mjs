// Child process of the crash suite (crash-suite.ts): appends through a real adapter until it is killed,
// printing one line per acknowledged append. Usage: node crash-writer.mjs <adapter entry> <data dir> [database url]
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

const [adapterEntry, dataDir, databaseUrl] = process.argv.slice(2);
const { openEventStore } = await import(pathToFileURL(adapterEntry).href);
const store = await openEventStore({ dataDir, databaseUrl });

// Several writers so that appends share transactions (group commit) when the kill lands.
async function write(writer) {
  const stream = `crash-${writer}`;
  let expected = 'no_stream';
  for (let batch = 0; ; batch += 1) {
    const size = 1 + (batch % 3);
    const batchId = randomUUID();
    const events = Array.from({ length: size }, (_, index) => ({
      id: randomUUID(),
      type: 'CrashTested',
      data: { writer, batch, index, size, batchId },
      metadata: { actor: 'system', correlationId: batchId, causationId: batchId },
    }));
    const result = await store.append(stream, events, expected);
    expected = result.nextExpectedRevision;
    const acknowledged = {
      stream,
      ids: events.map((event) => event.id),
      revision: String(result.nextExpectedRevision),
      position: String(result.position),
    };
    process.stdout.write(`${JSON.stringify(acknowledged)}\n`);
  }
}

await Promise.all(Array.from({ length: 6 }, (_, writer) => write(writer)));
