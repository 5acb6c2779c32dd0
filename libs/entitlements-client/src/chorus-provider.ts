// An OpenFeature server provider for Chorus's entitlements: every organization the key may see is held in
// memory, filled from GET /entitlements and kept current from GET /entitlements/changes, so an evaluation
// never leaves the process. While the stream is down it answers the last values (STALE) and reconnects with
// Last-Event-ID; the server resends what was missed, or says reset and everything is read again.
import {
  FlagNotFoundError,
  InvalidContextError,
  OpenFeatureEventEmitter,
  ProviderEvents,
  TargetingKeyMissingError,
  TypeMismatchError,
  type EvaluationContext,
  type JsonValue,
  type Provider,
  type ResolutionDetails,
} from '@openfeature/server-sdk';
import { serverSentEvents } from './server-sent-events.js';

export type ChorusProviderOptions = {
  /** Chorus's origin, e.g. https://chorus.example.com */
  baseUrl: string;
  /** An API key with the entitlements:read scope. */
  apiKey: string;
  /** Every request but the stream is bounded by this (default 5 s). */
  requestTimeoutMs?: number;
  /**
   * The stream is taken as lost after this long without a byte (the server sends a heartbeat every 15 s; default 45 s).
   */
  idleTimeoutMs?: number;
  /** Reconnection backoff: the first wait, doubled up to the last (default 250 ms to 10 s). */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
};

type Flag = { value: JsonValue; reason: string };
type Organization = { etag: string; position: number | string; flags: Map<string, Flag> };
type Listed = { organizationId: string; etag: string; position: number | string; flags: Record<string, Flag> };
type Listing = { position: number | string | null; organizations: Listed[] };

export class ChorusEntitlementsProvider implements Provider {
  readonly metadata = { name: 'Chorus entitlements' } as const;
  readonly runsOn = 'server';
  readonly events = new OpenFeatureEventEmitter();
  private organizations = new Map<string, Organization>();
  private lastEventId: string | undefined;
  private stream: AbortController | undefined;
  private following: Promise<void> | undefined;
  private closed = false;
  private stale = false;

  constructor(private readonly options: ChorusProviderOptions) {}

  async initialize(): Promise<void> {
    await this.fill();
    this.following = this.follow();
  }

  async onClose(): Promise<void> {
    this.closed = true;
    this.stream?.abort();
    await this.following;
  }

  resolveBooleanEvaluation(
    flagKey: string,
    defaultValue: boolean,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<boolean>> {
    return Promise.resolve(this.resolve(flagKey, defaultValue, context));
  }

  resolveStringEvaluation(
    flagKey: string,
    defaultValue: string,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<string>> {
    return Promise.resolve(this.resolve(flagKey, defaultValue, context));
  }

  resolveNumberEvaluation(
    flagKey: string,
    defaultValue: number,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<number>> {
    return Promise.resolve(this.resolve(flagKey, defaultValue, context));
  }

  resolveObjectEvaluation<T extends JsonValue>(
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<T>> {
    return Promise.resolve(this.resolve(flagKey, defaultValue, context));
  }

  private resolve<T extends JsonValue>(
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
  ): ResolutionDetails<T> {
    const organizationId = context.targetingKey;
    if (organizationId === undefined || organizationId === '')
      throw new TargetingKeyMissingError('targetingKey must name the organization');
    const organization = this.organizations.get(organizationId);
    if (organization === undefined)
      throw new InvalidContextError(`No organization ${organizationId} is visible to this key`);
    const flag = organization.flags.get(flagKey);
    if (flag === undefined) throw new FlagNotFoundError(`There is no flag ${flagKey}`);
    const kind = (value: JsonValue) => (value === null ? 'null' : typeof value);
    if (kind(flag.value) !== kind(defaultValue))
      throw new TypeMismatchError(`${flagKey} is a ${kind(flag.value)}, not a ${kind(defaultValue)}`);
    const variant = typeof flag.value === 'object' ? 'limit' : String(flag.value);
    return { value: flag.value as T, reason: flag.reason, variant, flagMetadata: { position: organization.position } };
  }

  private async request(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.options.baseUrl}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${this.options.apiKey}`,
        ...(init.headers as Record<string, string> | undefined),
      },
      signal: AbortSignal.timeout(this.options.requestTimeoutMs ?? 5_000),
    });
  }

  /** Everything the key may see, read again; answers the flags that changed. */
  private async fill(): Promise<string[]> {
    const response = await this.request('/entitlements');
    if (!response.ok) throw new Error(`GET /entitlements answered ${response.status}`);
    const listing = (await response.json()) as Listing;
    const next = new Map<string, Organization>();
    for (const { organizationId, etag, position, flags } of listing.organizations) {
      next.set(organizationId, { etag, position, flags: new Map(Object.entries(flags)) });
    }
    const changed = new Set<string>();
    for (const id of new Set([...next.keys(), ...this.organizations.keys()])) {
      for (const key of changedKeys(this.organizations.get(id), next.get(id))) changed.add(key);
    }
    this.organizations = next;
    if (listing.position !== null) this.lastEventId = String(listing.position);
    return [...changed];
  }

  /** One organization read again (nothing when its ETag still matches); answers the flags that changed. */
  private async refresh(organizationId: string): Promise<string[]> {
    const known = this.organizations.get(organizationId);
    const response = await this.request('/ofrep/v1/evaluate/flags', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(known === undefined ? {} : { 'if-none-match': known.etag }) },
      body: JSON.stringify({ context: { targetingKey: organizationId } }),
    });
    if (response.status === 304) return [];
    if (response.status === 400) {
      // No longer visible (a member removed, an organization gone from this key's reach): forget it.
      this.organizations.delete(organizationId);
      return known === undefined ? [] : [...known.flags.keys()];
    }
    if (!response.ok) throw new Error(`the bulk evaluation answered ${response.status}`);
    const answer = (await response.json()) as {
      flags: ({ key: string } & Flag)[];
      metadata: { position: number | string };
    };
    const flags = new Map(answer.flags.map(({ key, value, reason }) => [key, { value, reason }]));
    const next: Organization = { etag: response.headers.get('etag') ?? '', position: answer.metadata.position, flags };
    this.organizations.set(organizationId, next);
    return changedKeys(known, next);
  }

  /** Follows the change stream until closed, reconnecting with backoff while it is down. */
  private async follow(): Promise<void> {
    let wait = this.options.reconnectMinMs ?? 250;
    while (!this.closed) {
      try {
        await this.followOnce(() => {
          wait = this.options.reconnectMinMs ?? 250;
        });
      } catch {
        // Lost: answered below as STALE, then tried again.
      }
      if (this.closed) return;
      if (!this.stale) {
        this.stale = true;
        this.events.emit(ProviderEvents.Stale, {
          message: 'The change stream is down: answering the last known values',
        });
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, this.options.reconnectMaxMs ?? 10_000);
    }
  }

  private async followOnce(connected: () => void): Promise<void> {
    this.stream = new AbortController();
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    let idle = setTimeout(() => this.stream?.abort(), idleMs);
    try {
      const response = await fetch(`${this.options.baseUrl}/entitlements/changes`, {
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: 'text/event-stream',
          ...(this.lastEventId === undefined ? {} : { 'last-event-id': this.lastEventId }),
        },
        signal: this.stream.signal,
      });
      if (!response.ok || response.body === null) throw new Error(`the change stream answered ${response.status}`);
      connected();
      if (this.stale) {
        // Back: what was missed comes first on the stream (or a reset); the values are current again after it.
        this.stale = false;
        this.events.emit(ProviderEvents.Ready);
      }
      const touch = () => {
        clearTimeout(idle);
        idle = setTimeout(() => this.stream?.abort(), idleMs);
      };
      const body = response.body as unknown as AsyncIterable<Uint8Array>;
      for await (const event of serverSentEvents(tapped(body, touch))) {
        const changed =
          event.event === 'reset'
            ? await this.fill()
            : event.event === 'entitlements'
              ? await this.refresh((JSON.parse(event.data) as { organizationId: string }).organizationId)
              : [];
        if (event.id !== undefined) this.lastEventId = event.id;
        if (changed.length > 0) this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: changed });
      }
    } finally {
      clearTimeout(idle);
    }
  }
}

/** The flag keys whose value or reason differ between two states of an organization. */
function changedKeys(before: Organization | undefined, after: Organization | undefined): string[] {
  const keys = new Set([...(before?.flags.keys() ?? []), ...(after?.flags.keys() ?? [])]);
  return [...keys].filter((key) => JSON.stringify(before?.flags.get(key)) !== JSON.stringify(after?.flags.get(key)));
}

/** The body's chunks, calling `touch` on each (the idle timer). */
async function* tapped(body: AsyncIterable<Uint8Array>, touch: () => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    touch();
    yield chunk;
  }
}
