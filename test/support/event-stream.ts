// A server-sent events client for tests: reads a `text/event-stream` answer with fetch and parses its events
// (what a browser's EventSource does), so a test can wait for the next event or see that the stream ended.
export type ServerSentEvent = { id?: string; event: string; data: string };

export type EventStreamReader = {
  status: number;
  headers: Headers;
  /** The next event (comments skipped); rejects after `timeoutMs`, or when the stream ends first. */
  next(timeoutMs?: number): Promise<ServerSentEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
};

export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const queue: ServerSentEvent[] = [];
  const waiting: Array<() => void> = [];
  let done = false;
  let buffer = '';
  const wake = () => waiting.splice(0).forEach((resolve) => resolve());
  const ended = (async () => {
    if (response.body === null) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let split: number;
        while ((split = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const fields = block.split('\n').filter((line) => !line.startsWith(':') && line !== '');
          if (fields.length === 0) continue;
          const field = (name: string) =>
            fields.filter((line) => line.startsWith(`${name}: `)).map((line) => line.slice(name.length + 2));
          queue.push({ id: field('id')[0], event: field('event')[0] ?? 'message', data: field('data').join('\n') });
          wake();
        }
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
      wake();
    }
  })();
  const next = async (timeoutMs = 5_000): Promise<ServerSentEvent> => {
    const deadline = Date.now() + timeoutMs;
    while (queue.length === 0) {
      if (done) throw new Error('the event stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        // Cleared when an event comes first: a pending timer would keep the test's worker from exiting.
        const timer = setTimeout(resolve, left);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return queue.shift() as ServerSentEvent;
  };
  return { status: response.status, headers: response.headers, next, ended, close: () => controller.abort() };
}
