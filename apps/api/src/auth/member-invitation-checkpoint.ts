// Where a reaction stands, in DATA_DIR: the last position below which every event it owes something was
// handled, in which store (member-invitation-reaction.ts; the traffic threshold mails reuse it).
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export const invitationCheckpointFile = (dataDir: string, reaction = 'member-invitations'): string => join(dataDir, 'reactions', `${reaction}.json`);

export type Checkpoint = { storeId: string; position: string | null };

export async function readCheckpoint(dataDir: string, reaction?: string): Promise<Checkpoint | undefined> {
  const file = invitationCheckpointFile(dataDir, reaction);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<Checkpoint>;
  if (typeof parsed.storeId !== 'string' || (parsed.position !== null && typeof parsed.position !== 'string')) {
    throw new Error(
      `${file} is not a reaction checkpoint; remove it to start from the end of the event store (what was owed since it was written would not be mailed)`,
    );
  }
  return { storeId: parsed.storeId, position: parsed.position };
}

/**
 * Written whole (a temporary file renamed over it): a process that dies leaves the old checkpoint or the
 * new one. Synced only when it decides where the reaction starts (the first start) and at shutdown: the
 * periodic ones may be lost with the machine's power, which only means handling again what they covered
 * (idempotent), and syncing them made the outbox's file creations wait for the journal (the profile:
 * `open` 3 s of 10 s busy for 2,048 invitations).
 */
export async function saveCheckpoint(dataDir: string, checkpoint: Checkpoint, durable: boolean, reaction?: string): Promise<void> {
  const file = invitationCheckpointFile(dataDir, reaction);
  const directory = dirname(file);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(checkpoint));
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  if (!durable) return;
  const directoryHandle = await open(directory, 'r');
  try {
    await directoryHandle.sync();
  } finally {
    await directoryHandle.close();
  }
}
