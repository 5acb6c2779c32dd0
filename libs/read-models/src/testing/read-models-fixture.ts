// A temp DATA_DIR with a real SQLite event store and read models over it, for integration tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPlanCatalogue, type OrganizationCommand } from '#domain';
import { openEventStore, type AppendResult, type EventStore } from '#event-store';
import { ReadModels, type ProjectorMode } from '../read-models.js';
import { executeOrganizationCommand } from './organization-commands.js';

export const catalogue = createPlanCatalogue();

export class ReadModelsFixture {
  private readonly opened: ReadModels[] = [];

  private constructor(
    readonly dataDir: string,
    readonly store: EventStore,
  ) {}

  static async create(): Promise<ReadModelsFixture> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chorus-read-models-'));
    return new ReadModelsFixture(dataDir, await openEventStore({ dataDir }));
  }

  /** Read models over the fixture's DATA_DIR; 'inline' also starts their projector. */
  readModels(projector: ProjectorMode = 'inline', batchSize?: number): ReadModels {
    const readModels = ReadModels.open({ dataDir: this.dataDir, store: this.store, catalogue });
    this.opened.push(readModels);
    if (projector === 'inline') readModels.start(batchSize === undefined ? {} : { batchSize });
    return readModels;
  }

  execute(organizationId: string, ...commands: OrganizationCommand[]): Promise<AppendResult | undefined> {
    return commands.reduce<Promise<AppendResult | undefined>>(
      (previous, command) =>
        previous.then(() => executeOrganizationCommand(this.store, catalogue, organizationId, command)),
      Promise.resolve(undefined),
    );
  }

  async head(): Promise<bigint> {
    const head = await this.store.headPosition();
    if (head === undefined) throw new Error('the store is empty');
    return head;
  }

  async dispose(): Promise<void> {
    for (const readModels of this.opened) await readModels.close();
    await this.store.close();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
