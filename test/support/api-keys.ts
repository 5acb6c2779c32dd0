import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeys, type ApiKeyScope } from '#api';

/** Issues an API key in a running app, as `chorus api-key:create` would; answers the key to send. */
export async function createApiKey(app: INestApplicationContext, scopes: readonly ApiKeyScope[], name = 'e2e'): Promise<string> {
  const correlationId = randomUUID();
  const created = await app.get(ApiKeys).create({ name, scopes }, { actor: 'cli', correlationId, causationId: correlationId, origin: {} });
  return created.key;
}
