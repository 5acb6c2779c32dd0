import { useState } from 'react';
import type { Position } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { formatDateTime } from '../../../lib/date-time';
import { useGetSignInSecurityQuery } from '../api/history-api';

/** docs/console.md, History. */
export function SignInSecurity({ organizationId }: { organizationId: string }) {
  const [before, setBefore] = useState<Position | undefined>(undefined);
  const page = useGetSignInSecurityQuery({ organizationId, ...(before === undefined ? {} : { before }) });
  if (page.error !== undefined) return <FormAlert>{refusalMessage(problemOf(page.error))}</FormAlert>;
  if (page.data === undefined) return <p className="muted">Loading…</p>;
  const { entries, next } = page.data;
  if (entries.length === 0 && before === undefined)
    return <p className="muted">No member has set up, used or lost a second factor yet.</p>;
  return (
    <>
      <ul className="rows" aria-label="Sign-in security events">
        {entries.map((entry) => (
          <li className="row" key={String(entry.position)}>
            <div className="row__main">
              <span className="row__title">{entry.description}</span>
              <span className="row__detail">
                {entry.member.email} · <time dateTime={entry.recordedAt}>{formatDateTime(entry.recordedAt)}</time>
                {entry.actorName !== entry.member.email && <> · by {entry.actorName}</>}
              </span>
            </div>
          </li>
        ))}
      </ul>
      <div className="form__actions">
        {before !== undefined && (
          <Button type="button" variant="secondary" onClick={() => setBefore(undefined)}>
            Newest
          </Button>
        )}
        {next !== null && (
          <Button type="button" variant="secondary" onClick={() => setBefore(next)}>
            Older
          </Button>
        )}
      </div>
    </>
  );
}
