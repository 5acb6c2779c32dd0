import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { useCommand } from '../../../api/use-command';
import { SIGN_IN_METHOD_NAMES } from '../../../api/words';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { formatDateTime } from '../../../lib/date-time';
import { useGetSessionsQuery, useRevokeOtherSessionsMutation, useRevokeSessionMutation } from '../api/account-api';
import { describeUserAgent } from '../user-agent';

export function SessionList() {
  const { data, isLoading, error } = useGetSessionsQuery();
  const [revoke, revoking] = useRevokeSessionMutation();
  const [revokeOthers, revokingOthers] = useRevokeOtherSessionsMutation();
  const { problem, done, run } = useCommand();
  const sessions = data?.sessions ?? [];
  const others = sessions.filter((session) => !session.current);

  if (isLoading) return <p className="muted">Loading your sessions…</p>;
  const shown = problem ?? (error === undefined ? null : problemOf(error));
  return (
    <>
      <FormAlert>{shown && refusalMessage(shown)}</FormAlert>
      <ul className="rows" aria-label="Sessions">
        {sessions.map((session) => {
          const browser = describeUserAgent(session.userAgent);
          return (
            <li className="row" key={session.id}>
              <div className="row__main">
                <span className="row__title">
                  {browser}
                  {session.current && <span className="tag tag--current">This browser</span>}
                </span>
                <span className="row__detail">
                  {SIGN_IN_METHOD_NAMES[session.method]}
                  {session.secondStepPending === true && ', waiting for the second step'} · started{' '}
                  <time dateTime={session.startedAt}>{formatDateTime(session.startedAt)}</time> · last active{' '}
                  <time dateTime={session.lastActiveAt}>{formatDateTime(session.lastActiveAt)}</time>
                </span>
              </div>
              {!session.current && (
                <div className="row__actions">
                  <Button
                    type="button"
                    variant="secondary"
                    className="button--small"
                    disabled={revoking.isLoading}
                    onClick={() => void run(() => revoke(session.id).unwrap(), `${browser} is signed out.`)}
                  >
                    Sign out
                    <span className="visually-hidden">
                      {' '}
                      {browser}, started {formatDateTime(session.startedAt)}
                    </span>
                  </Button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {others.length > 0 ? (
        <div className="form__actions form__actions--start">
          <Button
            type="button"
            variant="secondary"
            busy={revokingOthers.isLoading}
            onClick={() => void run(() => revokeOthers().unwrap(), 'Every other session is signed out.')}
          >
            Sign out everywhere else
          </Button>
        </div>
      ) : (
        <p className="muted sessions__alone">You are signed in with this browser only.</p>
      )}
      <p className="form__status" role="status">
        {done}
      </p>
    </>
  );
}
