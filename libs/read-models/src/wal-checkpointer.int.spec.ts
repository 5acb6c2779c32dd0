// The process running the projector checkpoints the read-model log in a worker thread, holding its
// commits meanwhile: a long catch-up leaves the log at about SQLite's own size, not one commit per
// page piled up.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { readModelsFile } from './read-model-database.js';
import { ReadModelsFixture } from './testing/read-models-fixture.js';

let fixture: ReadModelsFixture;

beforeEach(async () => {
  fixture = await ReadModelsFixture.create();
});

afterEach(() => fixture.dispose());

const walBytes = (): number => statSync(`${readModelsFile(fixture.dataDir)}-wal`).size;

const billingEvent = () => {
  const correlationId = randomUUID();
  return {
    id: randomUUID(),
    type: 'BillingEventReceived',
    data: { padding: 'x'.repeat(200) },
    metadata: { actor: 'billing', correlationId, causationId: correlationId },
  };
};

describe('read-model log checkpoints', () => {
  it('keep the log near 4 MB through a long catch-up', async () => {
    // 40,000 billing events, each indexed by the correlation projection: far more log than 4 MB.
    for (let batch = 0; batch < 80; batch += 1) {
      const events = Array.from({ length: 500 }, billingEvent);
      await fixture.store.append(`billing-${batch}`, events, 'no_stream');
    }
    const readModels = fixture.readModels();
    let largest = 0;
    const watch = setInterval(() => (largest = Math.max(largest, walBytes())), 5);
    try {
      expect(await readModels.waitForPosition(await fixture.head(), 120_000)).toBe(true);
    } finally {
      clearInterval(watch);
    }
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(12 * 1024 * 1024);
  }, 180_000);

  it('keep the log bounded under a stream of live commits, which wait for a checkpoint only past 64 MB', async () => {
    const readModels = fixture.readModels();
    await fixture.store.append('billing-first', [billingEvent()], 'no_stream');
    expect(await readModels.waitForPosition(await fixture.head(), 30_000)).toBe(true);
    let largest = 0;
    const watch = setInterval(() => (largest = Math.max(largest, walBytes())), 5);
    try {
      // Eight writers, each waiting for its event to be readable before the next, as commands' answers do.
      await Promise.all(
        Array.from({ length: 8 }, async (_, writer) => {
          for (let event = 0; event < 400; event += 1) {
            const appended = await fixture.store.append(`billing-${writer}-${event}`, [billingEvent()], 'no_stream');
            expect(await readModels.waitForPosition(appended.position, 30_000)).toBe(true);
          }
        }),
      );
    } finally {
      clearInterval(watch);
    }
    expect(largest).toBeGreaterThan(4 * 1024 * 1024);
    expect(largest).toBeLessThan(96 * 1024 * 1024);
  }, 180_000);
});
