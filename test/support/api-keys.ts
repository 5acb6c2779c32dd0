import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeys, type ApiKeyScope } from '#api';

/**
 * Issues an API key in a running app, as `chorus api-key:create` would (bound to `organizationId` when given); answers
 * the key to send.
 */
export async function createApiKey(
  app: INestApplicationContext,
  scopes: readonly ApiKeyScope[],
  name = 'e2e',
  organizationId?: string,
): Promise<string> {
  const correlationId = randomUUID();
  const created = await app
    .get(ApiKeys)
    .create(
      { name, scopes, ...(organizationId === undefined ? {} : { organizationId }) },
      { actor: 'cli', correlationId, causationId: correlationId, origin: {} },
    );
  return created.key;
}
