import type { ApiKeyScope } from '#domain';

/**
 * Who is calling: an API client (bound to one organization when organizationId is set), a signed-in user
 * (one of their sessions), or the command line.
 */
export type Principal =
  | { kind: 'api-key'; keyId: string; scopes: readonly ApiKeyScope[]; organizationId?: string }
  | { kind: 'user'; userId: string; sessionId: string }
  | { kind: 'cli' };

/** The actor recorded in event metadata (see EventMetadata.actor). */
export function actorOf(principal: Principal): string {
  switch (principal.kind) {
    case 'api-key':
      return `api-key:${principal.keyId}`;
    case 'user':
      return `user:${principal.userId}`;
    case 'cli':
      return 'cli';
  }
}
