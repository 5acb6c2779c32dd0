// The names of the actors that have one, for the history's actor column: an API key's (its own stream) and a
// directory token's (the organization's directory). Names are the customer's own words, never personal data.
import { Injectable } from '@nestjs/common';
import { DirectoryTokens } from '../directory/directory-tokens.service.js';
import { ApiKeyNames } from './api-key-names.js';

const API_KEY = 'api-key:';
const SCIM = 'scim:';

@Injectable()
export class ActorNameLookup {
  constructor(
    private readonly apiKeys: ApiKeyNames,
    private readonly directory: DirectoryTokens,
  ) {}

  /** By the whole actor (`api-key:<id>`, `scim:<token id>`); an actor with no name found is left out. */
  async namesOf(organizationId: string, actors: Iterable<string>): Promise<Map<string, string>> {
    const wanted = new Set(actors);
    const names = new Map<string, string>();
    const keyIds = [...wanted].filter((actor) => actor.startsWith(API_KEY)).map((actor) => actor.slice(API_KEY.length));
    for (const [keyId, name] of await this.apiKeys.namesOf(keyIds)) names.set(`${API_KEY}${keyId}`, name);
    // The directory is read only when a token acted: most histories have none.
    if ([...wanted].some((actor) => actor.startsWith(SCIM))) {
      for (const token of await this.directory.tokens(organizationId)) {
        if (wanted.has(`${SCIM}${token.tokenId}`)) names.set(`${SCIM}${token.tokenId}`, token.name);
      }
    }
    return names;
  }
}
