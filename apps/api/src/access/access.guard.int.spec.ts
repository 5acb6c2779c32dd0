import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { Request } from 'express';
import { createPlanCatalogue, organizationStream } from '#domain';
import { SqliteEventStore } from '#event-store';
import { attachRequestContext, requestContextOf } from '../http/request-context.js';
import { OrganizationStateCache } from '../organizations/organizations.service.js';
import { Organizations } from '../organizations/organizations.service.js';
import { organizationRoles } from '../organizations/organization-streams.module.js';
import { AccessGuard } from './access.guard.js';
import type { Principal } from './principal.js';
import type { PrincipalResolvers } from './principal-resolvers.service.js';
import { ANY_MEMBER, OWNERS_AND_ADMINS, RequireAccess } from './require-access.decorator.js';

class Routes {
  @RequireAccess({ scope: 'organizations:read', members: ANY_MEMBER })
  read(): void {}

  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  change(): void {}

  @RequireAccess({ scope: 'organizations:write' })
  create(): void {}

  open(): void {}
}

// One handler inherited by two controllers, one of them guarded at class level: the rule depends on both.
class OpenBase {
  shared(): void {}
}
class OpenRoutes extends OpenBase {}
@RequireAccess({ scope: 'organizations:read' })
class GuardedRoutes extends OpenBase {}

const metadata = { actor: 'cli', correlationId: 'c', causationId: 'c' };
let principal: Principal | undefined;
let guard: AccessGuard;
let dataDir: string;
let store: SqliteEventStore;

type Call = { canActivate: Promise<boolean>; request: Request; response: ServerResponse };

function call(route: keyof Routes, organizationId = 'acme', sentCorrelationId?: string): Call {
  return callOn(Routes, Routes.prototype[route], organizationId, sentCorrelationId);
}

function callOn(
  type: new () => object,
  handler: () => void,
  organizationId = 'acme',
  sentCorrelationId?: string,
): Call {
  const request = { params: { id: organizationId }, headers: {} } as unknown as Request;
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  const requestContext = {
    correlationId: 'chorus-own',
    sentCorrelationId,
    clientIp: undefined,
    userAgent: undefined,
    actor: undefined,
  };
  attachRequestContext(request, requestContext);
  response.setHeader('X-Correlation-Id', 'chorus-own');
  const context = new ExecutionContextHost([request, response], type, handler);
  context.setType('http');
  return { canActivate: guard.canActivate(context), request, response };
}

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-access-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  const stream = organizationStream('acme');
  await store.append(
    stream,
    [{ id: randomUUID(), type: 'OrganizationCreated', data: { id: 'acme', name: 'Acme' }, metadata }],
    'no_stream',
  );
  for (const [userId, role] of [
    ['olga', 'owner'],
    ['adam', 'admin'],
    ['mia', 'member'],
  ]) {
    await store.append(
      stream,
      [
        {
          id: randomUUID(),
          type: 'MemberAdded',
          data: { userId, email: `${userId}@example.com`, role, chorusUser: false },
          metadata,
        },
      ],
      'any',
    );
  }
  const resolvers = { resolve: () => Promise.resolve(principal) } as unknown as PrincipalResolvers;
  guard = new AccessGuard(
    new Reflector(),
    resolvers,
    organizationRoles(new Organizations(store, new OrganizationStateCache(), createPlanCatalogue())),
  );
  principal = undefined;
});

afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const user = (userId: string): Principal => ({ kind: 'user', userId, sessionId: 's' });

describe('AccessGuard', () => {
  it('lets anyone call a route without a rule', async () => {
    await expect(call('open').canActivate).resolves.toBe(true);
  });

  it('refuses a call without credentials with 401 UNAUTHENTICATED', async () => {
    await expect(call('read').canActivate).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('lets an API key through with the scope, and refuses it without (403 FORBIDDEN)', async () => {
    principal = { kind: 'api-key', keyId: 'k', scopes: ['organizations:read'] };

    await expect(call('read').canActivate).resolves.toBe(true);
    await expect(call('change').canActivate).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('lets a key bound to an organization reach only that organization, and no route about no organization', async () => {
    principal = {
      kind: 'api-key',
      keyId: 'k',
      scopes: ['organizations:read', 'organizations:write'],
      organizationId: 'acme',
    };

    await expect(call('read').canActivate).resolves.toBe(true);
    await expect(call('change').canActivate).resolves.toBe(true);
    await expect(call('read', 'elsewhere').canActivate).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(call('change', 'Not A Valid Id').canActivate).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(call('create', '').canActivate).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('records the caller in the request context, as the actor of what the call records', async () => {
    principal = { kind: 'api-key', keyId: 'k', scopes: ['organizations:read'] };
    const { canActivate, request } = call('read');
    await canActivate;

    expect(requestContextOf(request)?.actor).toEqual('api-key:k');
  });

  it("adopts the correlation id the caller sent only behind the caller's name, and answers that", async () => {
    principal = user('olga');
    const sent = call('read', 'acme', 'my-request-1');
    await sent.canActivate;
    const anonymous = call('open', 'acme', 'my-request-1');
    await anonymous.canActivate;

    expect(requestContextOf(sent.request)?.correlationId).toBe('user:olga:my-request-1');
    expect(sent.response.getHeader('X-Correlation-Id')).toBe('user:olga:my-request-1');
    // No caller identified (a route without a rule): Chorus's own id stays.
    expect(requestContextOf(anonymous.request)?.correlationId).toBe('chorus-own');
    expect(anonymous.response.getHeader('X-Correlation-Id')).toBe('chorus-own');
  });

  it('lets any member read, only owners and admins change', async () => {
    for (const [userId, mayChange] of [
      ['olga', true],
      ['adam', true],
      ['mia', false],
    ] as const) {
      principal = user(userId);
      await expect(call('read').canActivate).resolves.toBe(true);
      if (mayChange) await expect(call('change').canActivate).resolves.toBe(true);
      else await expect(call('change').canActivate).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
  });

  it('refuses users who are not members, of organizations that do not exist, and on routes for API keys only', async () => {
    principal = user('stranger');
    await expect(call('read').canActivate).rejects.toMatchObject({ code: 'FORBIDDEN' });

    principal = user('olga');
    await expect(call('read', 'elsewhere').canActivate).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(call('read', 'Not A Valid Id').canActivate).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(call('create').canActivate).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it("reads each route's rule from its handler and its class, the same on every call", async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(call('open').canActivate).resolves.toBe(true);
      await expect(call('read').canActivate).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
      await expect(callOn(OpenRoutes, OpenBase.prototype.shared).canActivate).resolves.toBe(true);
      await expect(callOn(GuardedRoutes, OpenBase.prototype.shared).canActivate).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
      });
    }
  });

  it('lets the command line do anything', async () => {
    principal = { kind: 'cli' };

    await expect(call('change').canActivate).resolves.toBe(true);
    await expect(call('create').canActivate).resolves.toBe(true);
  });
});
