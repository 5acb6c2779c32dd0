// The change stream's events, read off a fetch answer's body as they arrive (text/event-stream).

export type ServerSentEvent = { id: string | undefined; event: string; data: string };

/** Yields each event of the stream (comment lines, the heartbeats, are skipped); ends when the stream does. */
export async function* serverSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const field = (name: string) =>
        lines
          .filter((line) => line.startsWith(`${name}:`))
          .map((line) => line.slice(name.length + 1).replace(/^ /, ''));
      const data = field('data');
      const event = field('event')[0];
      if (event === undefined && data.length === 0) continue;
      yield { id: field('id')[0], event: event ?? 'message', data: data.join('\n') };
    }
  }
}
