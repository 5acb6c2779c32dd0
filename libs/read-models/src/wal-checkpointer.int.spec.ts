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

describe('read-model log checkpoints', () => {
  it('keep the log near 4 MB through a long catch-up', async () => {
    // 40,000 billing events, each indexed by the correlation projection: far more log than 4 MB.
    for (let batch = 0; batch < 80; batch += 1) {
      const events = Array.from({ length: 500 }, () => {
        const correlationId = randomUUID();
        return { id: randomUUID(), type: 'BillingEventReceived', data: { padding: 'x'.repeat(200) }, metadata: { actor: 'billing', correlationId, causationId: correlationId } };
      });
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
});
