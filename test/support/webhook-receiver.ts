// A customer's webhook receiver: an HTTP server on loopback that verifies every delivery with the `standardwebhooks`
// package, as receivers do, and answers what the test tells it to (200, a failure, a redirect).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type ReceivedWebhook = {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
};

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Every request as it came, for formats other than Standard Webhooks (Splunk's, Datadog's). */
  readonly requests: { headers: IncomingHttpHeaders; body: string }[] = [];
  /** Deliveries refused by the answer the test chose (they are not in `received`). */
  refused = 0;
  /** The status to answer; a 3xx also sends a Location. */
  answer = 200;
  /** How long each answer takes (a slow receiver). */
  delayMs = 0;
  /** While set, every answer waits for it (a receiver that hangs). */
  private held: Promise<void> | undefined;
  /** For a test whose clock is far from the receiver's (a verification refuses a timestamp over 5 minutes off). */
  verifying = true;
  private secrets: string[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const holder: { receiver?: WebhookReceiver } = {};
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () =>
        holder.receiver?.handle(request.headers, Buffer.concat(chunks).toString('utf8'), (status, location) => {
          void (holder.receiver?.held ?? Promise.resolve()).then(() =>
            setTimeout(() => {
              response.writeHead(status, location === undefined ? { 'content-type': 'text/plain' } : { location });
              response.end(status < 300 ? 'thanks' : `answered ${status}`);
            }, holder.receiver?.delayMs ?? 0),
          );
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.receiver = new WebhookReceiver(server);
    return holder.receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Answers wait until the function returned is called. */
  hold(): () => void {
    let release = (): void => undefined;
    this.held = new Promise((resolve) => (release = resolve));
    return () => {
      this.held = undefined;
      release();
    };
  }

  /** Any of them may sign (a receiver that has been given a rotated secret keeps the old one a while). */
  trust(...secrets: string[]): void {
    this.secrets = secrets;
  }

  verifiesWith(secret: string, delivery: ReceivedWebhook): boolean {
    try {
      new Webhook(secret).verify(delivery.body, {
        'webhook-id': delivery.id,
        'webhook-timestamp': delivery.timestamp,
        'webhook-signature': delivery.signature,
      });
      return true;
    } catch {
      return false;
    }
  }

  /** Whether `secret` made one of the delivery's signatures, at the time it carries (however far from now). */
  signedBy(secret: string, delivery: ReceivedWebhook): boolean {
    const expected = new Webhook(secret).sign(delivery.id, new Date(Number(delivery.timestamp) * 1000), delivery.body);
    return delivery.signature.split(' ').includes(expected);
  }

  async waitFor(count: number, timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
    const until = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > until)
        throw new Error(`${this.received.length} of ${count} webhooks received within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.received;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(
    headers: IncomingHttpHeaders,
    body: string,
    respond: (status: number, location?: string) => void,
  ): void {
    this.requests.push({ headers, body });
    if (headers['webhook-id'] === undefined) return respond(this.answer >= 300 ? this.answer : 200);
    const delivery = {
      id: String(headers['webhook-id']),
      timestamp: String(headers['webhook-timestamp']),
      signature: String(headers['webhook-signature']),
      body,
      payload: JSON.parse(body) as ReceivedWebhook['payload'],
    };
    if (this.verifying && !this.secrets.some((secret) => this.verifiesWith(secret, delivery))) return respond(401);
    if (this.answer >= 300) {
      this.refused += 1;
      return respond(this.answer, this.answer < 400 ? 'https://elsewhere.example/hooks' : undefined);
    }
    this.received.push(delivery);
    respond(this.answer);
  }
}
