import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { ScreenHeader } from '../../../components/layout/screen-header';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { RESET_MESSAGES } from '../reset-messages';
import { changePassword, newPasswordRejected, selectReset, type ResetProblem } from '../reset-slice';

const MESSAGE_ID = 'reset-message';

const problemMessage = (problem: ResetProblem): string =>
  problem.kind === 'refused' ? problem.detail : RESET_MESSAGES[problem.kind];

export function ResetPassword({ token }: { token: string }) {
  const dispatch = useAppDispatch();
  const reset = useAppSelector(selectReset);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    if (password === '') dispatch(newPasswordRejected('missing'));
    else if (password !== form.get('confirmation')) dispatch(newPasswordRejected('mismatch'));
    else void dispatch(changePassword({ token, password }));
  }

  const busy = reset.status === 'processing';
  const problem = reset.status === 'editing' ? reset.problem : null;
  const described = problem ? MESSAGE_ID : undefined;
  return (
    <>
      <ScreenHeader title={RESET_MESSAGES.title}>
        {reset.status === 'changed' ? RESET_MESSAGES.changed : RESET_MESSAGES.prompt}
      </ScreenHeader>
      {reset.status !== 'changed' && (
        <FormAlert id={MESSAGE_ID}>
          {reset.status === 'invalid-token' ? (
            <>
              {RESET_MESSAGES.invalidToken} <Link to={paths.forgot.getHref()}>Request a new link</Link>
            </>
          ) : (
            problem && problemMessage(problem)
          )}
        </FormAlert>
      )}
      {reset.status === 'changed' && (
        <Link className="button button--primary" to={paths.login.getHref()}>
          Back to log in
        </Link>
      )}
      {(reset.status === 'editing' || busy) && (
        <form className="form" noValidate onSubmit={submit} aria-busy={busy}>
          <TextField
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            aria-invalid={(problem !== null && problem.kind !== 'mismatch') || undefined}
            aria-describedby={described}
          />
          <TextField
            label="Confirm new password"
            name="confirmation"
            type="password"
            autoComplete="new-password"
            aria-invalid={problem?.kind === 'mismatch' || undefined}
            aria-describedby={described}
          />
          <Button type="submit" busy={busy}>
            Change password
          </Button>
        </form>
      )}
    </>
  );
}
