import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import {
  handleCommand,
  loadStream,
  type CommandContext,
  type FoldedStream,
  type FoldedStreamCache,
} from '#application';
import {
  API_KEY_SCOPES,
  apiKeyDecider,
  apiKeyStreamPrefix,
  evolveApiKey,
  isApiKeyScope,
  isUseDue,
  type ApiKey,
  type ApiKeyScope,
  type ApiKeyState,
  type RecordedApiKeyEvent,
} from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { AppClock } from '../../config/app-clock.js';
import { ProblemError } from '../../http/problem-error.js';
import { PINO } from '../../logging/pino.js';
import { organizationIdSchema } from '../../http/organization-ids.js';
import { ORGANIZATION_ROLES, type OrganizationRoles } from '../organization-roles.js';
import { generateApiKey, hashSecret, parseApiKey, secretMatchesDigest, storedDigest } from './api-key-credential.js';

export const MAX_API_KEY_NAME_LENGTH = 100;

/**
 * The stated bound within which a key revoked on another node is refused everywhere; the revoking node refuses it at
 * once.
 */
export const API_KEY_CACHE_MS = 5_000;
/** One append an hour per key, not one a request. */
export const API_KEY_USE_GRANULARITY_MS = 3_600_000;
export const MAX_CACHED_API_KEYS = 10_000;

export type CreatedApiKey = {
  keyId: string;
  name: string;
  scopes: ApiKeyScope[];
  organizationId: string | null;
  key: string;
  position: bigint;
};
export type RevokedApiKey = { keyId: string; revokedAt: string; alreadyRevoked: boolean; position: bigint };
export type ApiKeySummary = Omit<ApiKey, 'secretHash'>;
export type AuthenticatedApiKey = { keyId: string; scopes: ApiKeyScope[]; organizationId?: string };

const KEY_ID = /^[0-9a-f]{24}$/;

function refuse(detail: string, field: string): ProblemError {
  return new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', detail, { field });
}

const summary = ({ secretHash: _secretHash, ...rest }: ApiKey): ApiKeySummary => rest;

type CachedKey = { folded: FoldedStream<ApiKeyState>; checkedAt: number };

/** Worked out once per state of a key (a state is replaced, never changed). */
type KeyCheck = { digest: Buffer | undefined; lastUsedMs: number | null; authenticated: AuthenticatedApiKey };

/** The key is returned once; only its hash is stored. */
@Injectable()
export class ApiKeys {
  /** Unknown key ids are never cached (a flood of made-up ids cannot fill it). */
  private readonly cache = new Map<string, CachedKey>();
  private readonly checks = new WeakMap<ApiKey, KeyCheck>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ORGANIZATION_ROLES) private readonly organizations: OrganizationRoles,
    private readonly clock: AppClock,
    @Inject(PINO) private readonly logger: Logger,
  ) {}

  async create(
    request: { name: string; scopes: readonly string[]; organizationId?: string },
    context: CommandContext,
  ): Promise<CreatedApiKey> {
    const name = request.name.trim();
    if (name === '' || name.length > MAX_API_KEY_NAME_LENGTH)
      throw refuse(`name must be 1 to ${MAX_API_KEY_NAME_LENGTH} characters.`, 'name');
    const unknown = request.scopes.filter((scope) => !isApiKeyScope(scope));
    if (request.scopes.length === 0 || unknown.length > 0) {
      throw refuse(
        `scopes must be one or more of ${API_KEY_SCOPES.join(', ')}${unknown.length > 0 ? ` (not ${unknown.join(', ')})` : ''}.`,
        'scopes',
      );
    }
    const organizationId =
      request.organizationId === undefined ? undefined : await this.existingOrganization(request.organizationId);
    const scopes = API_KEY_SCOPES.filter((scope) => request.scopes.includes(scope));
    const { keyId, secret, key } = generateApiKey();
    const created = {
      keyId,
      name,
      scopes,
      secretHash: hashSecret(secret),
      ...(organizationId === undefined ? {} : { organizationId }),
    };
    const { position } = await handleCommand(
      this.store,
      apiKeyDecider,
      keyId,
      { type: 'CreateApiKey', data: created },
      context,
      // A new random id: its stream is expected new, without a read.
      { known: 'no_stream' },
    );
    return { keyId, name, scopes, organizationId: organizationId ?? null, key, position: position ?? -1n };
  }

  /** Idempotent: a revoked key stays revoked, at its first revocation's time. */
  async revoke(keyId: string, context: CommandContext): Promise<RevokedApiKey> {
    if (!KEY_ID.test(keyId))
      throw refuse('The key id is the 24 hexadecimal characters after chrs_ (see api-key:list).', 'keyId');
    const at = this.clock.now();
    // Through this node's cache: the node that revokes refuses the key from the next request on.
    const handled = await handleCommand(
      this.store,
      apiKeyDecider,
      keyId,
      { type: 'RevokeApiKey', data: { keyId, at } },
      context,
      {
        cache: this.cacheOf(keyId, at.getTime()),
      },
    );
    return {
      keyId,
      revokedAt: handled.state?.revokedAt ?? at.toISOString(),
      alreadyRevoked: handled.appended.length === 0,
      position: handled.position ?? -1n,
    };
  }

  list(): Promise<ApiKeySummary[]> {
    const keys = new Map<string, ApiKeyState>();
    return new Promise((resolve, reject) => {
      const subscription = this.store.subscribeToAll({
        filter: { streamPrefixes: [apiKeyStreamPrefix] },
        onEvent: (event) => {
          keys.set(
            event.streamId,
            evolveApiKey(keys.get(event.streamId) ?? null, apiKeyDecider.read?.(event) as RecordedApiKeyEvent),
          );
        },
        onCaughtUp: () => {
          const listed = [...keys.values()].filter((key): key is ApiKey => key !== null).map(summary);
          subscription
            .close()
            .then(() => resolve(listed.sort((a, b) => a.createdAt.localeCompare(b.createdAt))), reject);
        },
        onError: reject,
      });
    });
  }

  async authenticate(key: string, context: CommandContext): Promise<AuthenticatedApiKey | undefined> {
    const credential = parseApiKey(key);
    if (credential === undefined) return undefined;
    const now = this.clock.now().getTime();
    const cached = this.cache.get(credential.keyId);
    // Within API_KEY_CACHE_MS of its last read, a request costs a map lookup and a SHA-256, no await.
    const apiKey =
      cached !== undefined && now - cached.checkedAt < API_KEY_CACHE_MS
        ? cached.folded.state
        : await this.read(credential.keyId, now);
    if (apiKey === null) return undefined;
    const check = this.checkOf(apiKey);
    if (!secretMatchesDigest(credential.secret, check.digest) || apiKey.revokedAt !== null) return undefined;
    if (check.lastUsedMs === null || now - check.lastUsedMs >= API_KEY_USE_GRANULARITY_MS)
      await this.noteUse(apiKey, context);
    return check.authenticated;
  }

  private async existingOrganization(organizationId: string): Promise<string> {
    const parsed = organizationIdSchema.safeParse(organizationId);
    if (!parsed.success)
      throw refuse(`organizationId ${parsed.error.issues[0]?.message ?? 'is not valid'}.`, 'organizationId');
    if (!(await this.organizations.exists(parsed.data)))
      throw new ProblemError(404, 'NOT_FOUND', 'Not found', `No organization has the id ${parsed.data}.`);
    return parsed.data;
  }

  private async read(keyId: string, now: number): Promise<ApiKeyState> {
    return (await loadStream(this.store, apiKeyDecider, keyId, { cache: this.cacheOf(keyId, now) })).state;
  }

  private checkOf(apiKey: ApiKey): KeyCheck {
    let check = this.checks.get(apiKey);
    if (check === undefined) {
      const { keyId, scopes, organizationId } = apiKey;
      check = {
        digest: storedDigest(apiKey.secretHash),
        lastUsedMs: apiKey.lastUsedAt === null ? null : Date.parse(apiKey.lastUsedAt),
        authenticated: Object.freeze(organizationId === null ? { keyId, scopes } : { keyId, scopes, organizationId }),
      };
      this.checks.set(apiKey, check);
    }
    return check;
  }

  /** Never fails the request it rides on (another node may have just done it). */
  private async noteUse(apiKey: ApiKey, context: CommandContext): Promise<void> {
    const now = this.clock.now();
    if (!isUseDue(apiKey, now, API_KEY_USE_GRANULARITY_MS)) return;
    try {
      const use = { type: 'RecordApiKeyUse', data: { at: now, useGranularityMs: API_KEY_USE_GRANULARITY_MS } } as const;
      await handleCommand(
        this.store,
        apiKeyDecider,
        apiKey.keyId,
        use,
        { ...context, actor: `api-key:${apiKey.keyId}` },
        {
          cache: this.cacheOf(apiKey.keyId, now.getTime()),
        },
      );
    } catch (error) {
      this.logger.warn(
        { err: error, keyId: apiKey.keyId, correlationId: context.correlationId },
        'API key use not recorded',
      );
    }
  }

  /** `checkedAt`: when the folded state was read. */
  private cacheOf(keyId: string, checkedAt: number): FoldedStreamCache<ApiKeyState> {
    return {
      get: () => this.cache.get(keyId)?.folded,
      remember: (_streamId, folded) => {
        const current = this.cache.get(keyId);
        this.cache.delete(keyId);
        this.cache.set(keyId, {
          folded: current !== undefined && current.folded.revision > folded.revision ? current.folded : folded,
          checkedAt,
        });
        for (const oldest of this.cache.keys()) {
          if (this.cache.size <= MAX_CACHED_API_KEYS) break;
          this.cache.delete(oldest);
        }
      },
      forget: () => {
        this.cache.delete(keyId);
      },
    };
  }
}
