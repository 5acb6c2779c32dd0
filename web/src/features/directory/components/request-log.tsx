import type { Organization } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { formatDateTime } from '../../../lib/date-time';
import { useScimRequestsQuery, useScimTokensQuery, type ScimRequest } from '../api/directory-api';
import { directoryRefusal } from '../directory-words';

/** Read again this often while the page is open: a provider's sync shows as it happens. */
const POLL_MS = 10_000;

function outcome(status: number): { words: string; failed: boolean } {
  if (status < 300) return { words: status === 201 ? 'Created' : 'Done', failed: false };
  if (status === 404) return { words: 'Not found', failed: true };
  if (status === 409)
    return { words: 'Refused: a conflict (already there, the users limit, or the last owner)', failed: true };
  if (status === 403) return { words: 'Refused: not allowed on this plan', failed: true };
  if (status < 500) return { words: 'Refused: not valid', failed: true };
  return { words: 'Failed on our side', failed: true };
}

/** The path from the resource type on: `/Users/3f…`. */
const resourceOf = (request: ScimRequest): string => request.path.replace(/^\/scim\/v2/, '') || '/';

export function RequestLog({ organization }: { organization: Organization }) {
  const { data, error, refetch, isFetching } = useScimRequestsQuery(organization.id, {
    pollingInterval: POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const { data: tokens } = useScimTokensQuery(organization.id);
  const tokenName = (tokenId: string): string =>
    tokens?.tokens.find((token) => token.id === tokenId)?.name ?? 'a revoked token';
  const requests = data?.requests ?? [];
  return (
    <div aria-busy={isFetching}>
      <FormAlert>{error !== undefined && directoryRefusal(problemOf(error))}</FormAlert>
      {data !== undefined && requests.length === 0 && (
        <p className="muted">No request yet: your identity provider’s first sync shows here.</p>
      )}
      {requests.length > 0 && (
        <ul className="rows" aria-label="Recent requests">
          {requests.map((request, index) => {
            const { words, failed } = outcome(request.status);
            return (
              <li className="row" key={`${request.at}-${index}`}>
                <div className="row__main">
                  <span className="row__title">
                    <code className="directory-request">
                      {request.method} {resourceOf(request)}
                    </code>
                  </span>
                  <span className={failed ? 'row__problem' : 'row__detail'}>
                    {request.status} {words}
                  </span>
                  <span className="row__detail">
                    {formatDateTime(request.at)}, with the token “{tokenName(request.tokenId)}”
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <div className="form__actions">
        <Button type="button" variant="secondary" className="button--small" onClick={() => void refetch()}>
          Check again
        </Button>
      </div>
    </div>
  );
}
