// The issuer is chosen by an organization's owner: answers are bounded, redirects never followed, and in production
// only public addresses are connected to, judged per connection (a name re-pointed after a check gains nothing).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type Agent, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { inSpan, SpanKind } from '#application';
import { isPublicAddress } from './public-address.js';

export const PROVIDER_RESPONSE_MAX_BYTES = 64 * 1024;
/** To the last byte of the answer, connecting included. */
export const PROVIDER_CALL_TIMEOUT_MS = 5_000;

export type ProviderFetchOptions = {
  publicAddressesOnly: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  lookup?: LookupFunction;
  agent?: Agent;
  /** Connections kept open between calls to the same host (a webhook receiver); each new one is judged as any. */
  keepAlive?: boolean;
};

/**
 * An idle connection is closed before a server's usual keep-alive timeout (Node's 5 s), so none is reused as it closes.
 */
const IDLE_CONNECTION_MS = 4_000;

/** Its message is for the log only. */
export class ProviderFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderFetchError';
  }
}

export type ProviderFetch = (
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; signal?: AbortSignal },
) => Promise<Response>;

/**
 * With tracing on, each call a client span naming the method and the provider's host (never its path or query,
 * which may carry codes); no `traceparent` is sent to a provider.
 */
export function createProviderFetch(options: ProviderFetchOptions): ProviderFetch {
  const fetch = untracedProviderFetch(options);
  return (input, init) => {
    const method = init.method ?? 'GET';
    const attributes = { 'http.request.method': method, 'server.address': hostOf(input) };
    return inSpan(`${method} provider`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      const response = await fetch(input, init);
      span?.setAttribute('http.response.status_code', response.status);
      return response;
    });
  };
}

const hostOf = (input: string): string => {
  try {
    return new URL(input).hostname;
  } catch {
    return '';
  }
};

function untracedProviderFetch(options: ProviderFetchOptions): ProviderFetch {
  const timeoutMs = options.timeoutMs ?? PROVIDER_CALL_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? PROVIDER_RESPONSE_MAX_BYTES;
  const lookup = options.publicAddressesOnly ? publicOnly(options.lookup ?? dnsLookup) : options.lookup;
  const kept =
    options.keepAlive === true
      ? { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' as const }
      : undefined;
  const agents = kept === undefined ? undefined : { http: new HttpAgent(kept), https: new HttpsAgent(kept) };
  return async (input, init) => {
    const url = new URL(input);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new ProviderFetchError(`Not an http(s) URL: ${url.protocol}`);
    // Node connects to an address literal without asking the lookup.
    const literal = options.publicAddressesOnly ? notPublicLiteral(url) : undefined;
    if (literal !== undefined) throw new ProviderFetchError(`${literal} is not a public address`);
    const body = requestBody(init.body);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: init.method ?? 'GET',
      // Compressed answers are not inflated, so none is asked for.
      headers: {
        ...init.headers,
        'accept-encoding': 'identity',
        ...(body === undefined ? {} : { 'content-length': String(body.length) }),
      },
      agent: options.agent ?? (agents === undefined ? false : url.protocol === 'https:' ? agents.https : agents.http),
      ...(lookup === undefined ? {} : { lookup }),
    });
    return new Promise<Response>((resolve, reject) => {
      const fail = (error: Error) => {
        clearTimeout(timer);
        init.signal?.removeEventListener('abort', aborted);
        request.destroy(error);
        reject(error);
      };
      const timer = setTimeout(
        () => fail(new ProviderFetchError(`No complete answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const aborted = () => fail(new ProviderFetchError('The call was aborted'));
      if (init.signal?.aborted === true) return aborted();
      init.signal?.addEventListener('abort', aborted, { once: true });
      request.on('error', fail);
      request.on('response', (response) => {
        readBounded(response, maxBytes)
          .then((content) => toResponse(response, content))
          .then((answer) => {
            clearTimeout(timer);
            init.signal?.removeEventListener('abort', aborted);
            resolve(answer);
          }, fail);
      });
      request.end(body);
    });
  };
}

/** Every address must be public: a connection may use any. */
export function publicOnly(resolve: LookupFunction): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, found) => {
      if (error !== null) return callback(error, '', 0);
      const addresses = (Array.isArray(found) ? found : [{ address: found, family: isIP(found) }]) as LookupAddress[];
      const refused = addresses.find(({ address }) => !isPublicAddress(address));
      if (refused !== undefined || addresses[0] === undefined) {
        return callback(
          new ProviderFetchError(`${hostname} resolves to ${refused?.address ?? 'no address'}, not a public address`),
          '',
          0,
        );
      }
      if (lookupOptions.all === true) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** The URL's host when it is an address literal that is not public (judged without any lookup). */
export function notPublicLiteral(target: string | URL): string | undefined {
  const host = new URL(target).hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) !== 0 && !isPublicAddress(host) ? host : undefined;
}

export async function checkPublicDestination(target: string, resolve: LookupFunction = dnsLookup): Promise<void> {
  const host = new URL(target).hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = notPublicLiteral(target);
  if (literal !== undefined) throw new ProviderFetchError(`${literal} is not a public address`);
  if (isIP(host) !== 0) return;
  await new Promise<void>((done, refuse) =>
    publicOnly(resolve)(host, { all: true }, (error) => (error === null ? done() : refuse(error))),
  );
}

function requestBody(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(body.toString());
  throw new ProviderFetchError('Only a form or text body is sent to a provider');
}

function readBounded(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new ProviderFetchError(`The answer is larger than ${maxBytes} bytes`);
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
    response.on('close', () => {
      if (!response.complete) reject(new ProviderFetchError('The provider closed the connection mid-answer'));
    });
  });
}

function toResponse(response: IncomingMessage, content: Buffer): Response {
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 599) throw new ProviderFetchError(`Unexpected status ${status}`);
  const raw = response.rawHeaders;
  const pairs: [string, string][] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) pairs.push([raw[index] ?? '', raw[index + 1] ?? '']);
  const headers = new Headers(pairs);
  const empty = status === 204 || status === 205 || status === 304;
  // A Uint8Array over its own ArrayBuffer is a BodyInit under both Node's and the DOM's types (node-saml brings the
  // latter).
  return new Response(empty ? null : new Uint8Array(content), {
    status,
    statusText: response.statusMessage ?? '',
    headers,
  });
}
