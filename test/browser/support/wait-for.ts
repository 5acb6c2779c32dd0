// Waits for something another process or the server's background work produces; gives up only after a generous
// deadline.
import { setTimeout as sleep } from 'node:timers/promises';

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  deadlineMs = 20_000,
): Promise<T> {
  const giveUpAt = Date.now() + deadlineMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > giveUpAt) throw new Error(`Gave up waiting for ${what} after ${deadlineMs / 1000} s`);
    await sleep(50);
  }
}
