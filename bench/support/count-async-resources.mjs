// Preloaded into a server (`node --import bench/support/count-async-resources.mjs main.js`): counts the
// async resources it creates, by type (PROMISE, TickObject, ...). On SIGUSR2 it writes the counts since
// the last SIGUSR2 to stderr as one JSON line, then starts again from zero. Used by
// bench/http/promises-per-request.mjs: a count per request does not depend on the machine's load.
import { createHook } from 'node:async_hooks';
import { writeSync } from 'node:fs';

const counts = new Map();
createHook({
  init(_id, type) {
    counts.set(type, (counts.get(type) ?? 0) + 1);
  },
}).enable();
process.on('SIGUSR2', () => {
  writeSync(2, `${JSON.stringify(Object.fromEntries(counts))}\n`);
  counts.clear();
});
