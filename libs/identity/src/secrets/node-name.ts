// A node's name, made once and kept in DATA_DIR/node-name: what it records as a node (the invitation mails
// it holds) names it across restarts, so that a restarted node takes its own unfinished mails on at once.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function loadNodeName(dataDir: string): string {
  const file = join(dataDir, 'node-name');
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `node-${randomUUID()}\n`, { flag: 'wx', mode: 0o644 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const name = readFileSync(file, 'utf8').trim();
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name))
    throw new Error(`${file}: not a node name (1 to 100 letters, digits, _ . -); remove it to make a new one`);
  return name;
}
