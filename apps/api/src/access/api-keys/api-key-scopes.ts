/** What an API key may do (docs/api.md, Organizations). */
export const API_KEY_SCOPES = ['organizations:read', 'organizations:write', 'audit:read'] as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(value);
}
