// The personal-keys contract against EventStoreDB's key store at the gRPC transport level, where no EventStoreDB runs
// (no Docker): the server is EventStoreDbWireServer, from the client's own Streams service definition. The same
// contract runs against a real EventStoreDB in eventstoredb-event-store.int.spec.ts where Docker exists; this one ran
// here first, and found a subject with no key answered as an error and a close() that never returned.
import { afterAll, beforeAll } from '@jest/globals';
import { tmpdir } from 'node:os';
import { openPersonalKeys } from './open-event-store.js';
import { describePersonalKeysContract } from './testing/personal-keys.contract.js';
import { EventStoreDbWireServer } from './testing/eventstoredb-wire-server.js';

const server = new EventStoreDbWireServer();
let connectionString = '';
beforeAll(async () => {
  connectionString = await server.start();
});
afterAll(() => server.stop());

describePersonalKeysContract('EventStoreDB at the gRPC transport level', async () => ({
  open: () => openPersonalKeys({ dataDir: tmpdir(), connectionString }),
  keepsErasureTimes: false,
  dispose: async () => undefined,
}));
