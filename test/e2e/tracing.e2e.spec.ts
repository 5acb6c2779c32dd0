// Tracing (docs/service.md, Tracing) as two API nodes run it, the built server over one store (the embedded
// one's DATA_DIR): an OTLP/HTTP receiver here takes their spans (http/json, so the test reads them as JSON). A
// member added on node A with a caller's W3C traceparent is one trace: A's request, command, decision and
// append; node B's projection of the event; the invitation's reaction and mail, on whichever node sends it.
// With no OTLP endpoint set, no exporter is started at all.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt } from '../support/chorus-process.js';
import { chorusCli, startApiNode, type ApiNode } from '../support/topology.js';

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  links?: { traceId: string; spanId: string }[];
};
type ExportRequest = {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
};

/** A span as received, with the node that sent it (its service.instance.id). */
type Received = OtlpSpan & { node: string | undefined; attribute(key: string): string | number | boolean | undefined };

const valueOf = (value: AnyValue | undefined) =>
  value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue)) ?? value?.boolValue;

/** A tiny OTLP/HTTP collector: POST /v1/traces with a JSON body. */
class Receiver {
  readonly spans: Received[] = [];
  requests = 0;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(port = 0): Promise<Receiver> {
    const received: { receiver?: Receiver } = {};
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const receiver = received.receiver as Receiver;
        receiver.requests += 1;
        if (
          request.method === 'POST' &&
          request.url === '/v1/traces' &&
          String(request.headers['content-type']).startsWith('application/json')
        ) {
          receiver.take(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest);
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    const receiver = new Receiver(
      server,
      `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`,
    );
    received.receiver = receiver;
    return receiver;
  }

  private take(body: ExportRequest): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const node = valueOf(
        resourceSpans.resource?.attributes?.find((attribute) => attribute.key === 'service.instance.id')?.value,
      );
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            ...span,
            node: typeof node === 'string' ? node : undefined,
            attribute: (key) => valueOf(span.attributes?.find((attribute) => attribute.key === key)?.value),
          });
        }
      }
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(what: string, probe: () => T | undefined, deadlineMs = 30_000): Promise<T> {
  const giveUpAt = Date.now() + deadlineMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > giveUpAt) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await sleep(50);
  }
}

function stop(node: ApiNode | undefined): Promise<unknown> {
  if (node === undefined || node.child.exitCode !== null || node.child.signalCode !== null) return Promise.resolve();
  node.child.kill('SIGTERM');
  return node.exit;
}

const tracingEnvironment = (receiver: Receiver, node: string): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '50',
  OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${node}`,
});

describe('tracing across two API nodes over one store', () => {
  let receiver: Receiver;
  let dataDir: string;
  let nodeA: ApiNode;
  let nodeB: ApiNode;
  let headers: Record<string, string>;

  beforeAll(async () => {
    ensureBuilt();
    receiver = await Receiver.start();
    dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-tracing-'));
    const created = JSON.parse(
      chorusCli(
        dataDir,
        {},
        'api-key:create',
        '--name',
        'tracing',
        '--scopes',
        'organizations:read,organizations:write',
        '--json',
      ),
    ) as { key: string };
    headers = { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' };
    // One projector on the shared DATA_DIR (libs/read-models/README.md): node B. Both react to the add.
    nodeA = await startApiNode('node-a', dataDir, { PROJECTIONS: 'off', ...tracingEnvironment(receiver, 'node-a') });
    nodeB = await startApiNode('node-b', dataDir, { PROJECTIONS: 'inline', ...tracingEnvironment(receiver, 'node-b') });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stop(nodeA), stop(nodeB)]);
    await receiver?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes a member add one trace: request, command, decision, append on A, the projection on B, the reaction and its mail', async () => {
    const organization = await fetch(`${nodeA.url}/organizations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Traced' }),
    });
    expect(organization.status).toBe(201);
    const { id } = (await organization.json()) as { id: string };
    // The caller's own trace, which the add joins.
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');

    const added = await fetch(`${nodeA.url}/organizations/${id}/members`, {
      method: 'POST',
      headers: { ...headers, traceparent: `00-${traceId}-${callerSpanId}-01` },
      body: JSON.stringify({ email: 'traced@example.com', role: 'owner' }),
    });
    expect([added.status, added.status === 201 ? '' : await added.text()]).toEqual([201, '']);

    const inTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
    const named = (name: string | RegExp, node?: string) => () =>
      inTrace().find(
        (span) =>
          (typeof name === 'string' ? span.name === name : name.test(span.name)) &&
          (node === undefined || span.node === node),
      );
    const request = await eventually(
      'the request span of node A',
      named(/^POST \/organizations\/:id\/members$/, 'node-a'),
    );
    const command = await eventually('the AddMember command span', () =>
      inTrace().find((span) => span.attribute('chorus.command') === 'AddMember'),
    );
    const decide = await eventually('its decision', () =>
      inTrace().find((span) => span.name === 'decide' && span.parentSpanId === command.spanId),
    );
    const append = await eventually('its append', () =>
      inTrace().find((span) => span.name === 'append' && span.parentSpanId === command.spanId),
    );
    const projection = await eventually("node B's projection of the event", named('project organizations', 'node-b'));
    const reaction = await eventually('the invitation reaction', () =>
      inTrace().find((span) => span.name === 'reaction member-invitations' && span.parentSpanId === append.spanId),
    );
    const mail = await eventually('the invitation mail', () =>
      inTrace().find((span) => span.name === 'mail send' && span.node === reaction.node),
    );

    expect(request).toMatchObject({ parentSpanId: callerSpanId, kind: 2 });
    expect(request.attribute('http.response.status_code')).toBe(201);
    expect(command.node).toBe('node-a');
    expect(decide.node).toBe('node-a');
    expect(append).toMatchObject({ node: 'node-a', kind: 3 });
    // One append for the command: the new address's reservation and the organization's MemberAdded.
    expect(String(append.attribute('chorus.stream')).split(' ')).toContain(`organization-${id}`);
    // B read the event's traceparent from the store: the append on A is its parent.
    expect(projection.parentSpanId).toBe(append.spanId);
    expect(['node-a', 'node-b']).toContain(reaction.node);
    // The mail is sent within the reaction (the claim and the record of it in between).
    const ancestorsOf = (span: Received): string[] => {
      const parent = inTrace().find(
        (candidate) => candidate.spanId === span.parentSpanId && candidate.node === span.node,
      );
      return parent === undefined ? [] : [parent.spanId, ...ancestorsOf(parent)];
    };
    expect(ancestorsOf(mail)).toContain(reaction.spanId);
    // The command is a child of the request, through whatever the route does first.
    expect(ancestorsOf(command)).toContain(request.spanId);
  });
});

describe('tracing off (no OTLP endpoint set)', () => {
  it('starts no exporter: nothing reaches a collector on the default OTLP/HTTP port, even with the other OTEL_* variables set', async () => {
    // The SDK's default endpoint is http://localhost:4318: a collector there would see any export.
    const receiver = await Receiver.start(4318).catch(() => Receiver.start());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-tracing-off-'));
    let node: ApiNode | undefined;
    try {
      const created = JSON.parse(
        chorusCli(
          dataDir,
          {},
          'api-key:create',
          '--name',
          'off',
          '--scopes',
          'organizations:read,organizations:write',
          '--json',
        ),
      ) as { key: string };
      const headers = { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' };
      const { OTEL_EXPORTER_OTLP_ENDPOINT: _unset, ...others } = tracingEnvironment(receiver, 'node-off');
      node = await startApiNode('node-off', dataDir, {
        ...others,
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
      });
      const organization = await fetch(`${node.url}/organizations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Untraced' }),
      });
      const { id } = (await organization.json()) as { id: string };
      const traceparent = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
      const added = await fetch(`${node.url}/organizations/${id}/members`, {
        method: 'POST',
        headers: { ...headers, traceparent },
        body: JSON.stringify({ email: 'untraced@example.com', role: 'owner' }),
      });
      expect(added.status).toBe(201);

      // A stopping node shuts its SDK down, which sends what it holds: once it has exited, every export is in.
      expect(await stop(node)).toBe(0);

      expect(receiver.requests).toBe(0);
    } finally {
      await stop(node);
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
