import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, eventMetadata, handleCommand, type CommandContext, type EventStore } from '#event-store';
import { ProblemError } from '../../http/problem-error.js';
import { generateApiKey, hashSecret, parseApiKey, secretMatches } from './api-key-credential.js';
import { apiKeyStream, type ApiKeyCreated } from './api-key-events.js';
import { API_KEY_SCOPES, isApiKeyScope, type ApiKeyScope } from './api-key-scopes.js';

export const MAX_API_KEY_NAME_LENGTH = 100;

export type CreatedApiKey = { keyId: string; name: string; scopes: ApiKeyScope[]; key: string; position: bigint };

function refuse(detail: string, field: string): ProblemError {
  return new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', detail, { field });
}

/** Creates API keys (the key is returned once, only its hash is stored) and recognises them. */
@Injectable()
export class ApiKeys {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async create(request: { name: string; scopes: readonly string[] }, context: CommandContext): Promise<CreatedApiKey> {
    const name = request.name.trim();
    if (name === '' || name.length > MAX_API_KEY_NAME_LENGTH) throw refuse(`name must be 1 to ${MAX_API_KEY_NAME_LENGTH} characters.`, 'name');
    const unknown = request.scopes.filter((scope) => !isApiKeyScope(scope));
    if (request.scopes.length === 0 || unknown.length > 0) {
      throw refuse(`scopes must be one or more of ${API_KEY_SCOPES.join(', ')}${unknown.length > 0 ? ` (not ${unknown.join(', ')})` : ''}.`, 'scopes');
    }
    const scopes = API_KEY_SCOPES.filter((scope) => request.scopes.includes(scope));
    const { keyId, secret, key } = generateApiKey();
    const event: ApiKeyCreated = { type: 'ApiKeyCreated', data: { keyId, name, scopes, secretHash: hashSecret(secret) } };
    // A key id is 96 random bits: its stream is new, and is created only if it is.
    const { position } = await handleCommand(
      this.store,
      apiKeyStream(keyId),
      (created: boolean) => {
        if (created) throw new Error(`API key id ${keyId} is already in use`);
        return [event];
      },
      { initialState: false, evolve: () => true, metadata: eventMetadata(context, 'CreateApiKey'), maxAttempts: 1 },
    );
    return { keyId, name, scopes, key, position: position ?? -1n };
  }

  /** The key's id and scopes when `key` is a key we issued, else undefined. */
  async authenticate(key: string): Promise<{ keyId: string; scopes: ApiKeyScope[] } | undefined> {
    const credential = parseApiKey(key);
    if (credential === undefined) return undefined;
    const read = await this.store.readStream(apiKeyStream(credential.keyId));
    if (!read.found) return undefined;
    const created = read.events.find((event) => event.type === 'ApiKeyCreated')?.data as ApiKeyCreated['data'] | undefined;
    if (created === undefined || !secretMatches(credential.secret, created.secretHash)) return undefined;
    return { keyId: created.keyId, scopes: created.scopes };
  }
}
