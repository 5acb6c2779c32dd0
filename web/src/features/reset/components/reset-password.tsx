import { useEffect, useRef, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store-hooks';
import { BackToLogIn } from '../../../components/layout/back-to-log-in';
import { ScreenHeader } from '../../../components/layout/screen-header';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { RESET_MESSAGES } from '../reset-messages';
import {
  changePassword,
  checkResetLink,
  newPasswordRejected,
  selectReset,
  type ResetProblem,
  type ResetState,
} from '../reset-slice';

const MESSAGE_ID = 'reset-message';

const problemMessage = (problem: ResetProblem): string =>
  problem.kind === 'refused' ? problem.detail : RESET_MESSAGES[problem.kind];

/** Empty while the link is checked, so nothing flashes before the answer. */
function subHeading(status: ResetState['status']): string {
  switch (status) {
    case 'unchecked':
    case 'checking':
      return '';
    case 'invalid-token':
      return RESET_MESSAGES.invalidToken;
    case 'changed':
      return RESET_MESSAGES.changed;
    case 'editing':
    case 'processing':
      return RESET_MESSAGES.prompt;
  }
}

export function ResetPassword({ token }: { token: string }) {
  const dispatch = useAppDispatch();
  const reset = useAppSelector(selectReset);
  const nextStep = useRef<HTMLAnchorElement>(null);
  const submitted = useRef(false);

  useEffect(() => {
    void dispatch(checkResetLink(token));
  }, [dispatch, token]);

  // The form (and the focus with it) is gone after a submit: hand the focus to what comes next.
  useEffect(() => {
    if (submitted.current && (reset.status === 'changed' || reset.status === 'invalid-token'))
      nextStep.current?.focus();
  }, [reset.status]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    if (password === '') dispatch(newPasswordRejected('missing'));
    else if (password !== form.get('confirmation')) dispatch(newPasswordRejected('mismatch'));
    else {
      submitted.current = true;
      void dispatch(changePassword({ token, password }));
    }
  }

  const busy = reset.status === 'processing';
  const problem = reset.status === 'editing' ? reset.problem : null;
  const described = problem ? MESSAGE_ID : undefined;
  return (
    <>
      <ScreenHeader title={RESET_MESSAGES.title}>{subHeading(reset.status)}</ScreenHeader>
      {reset.status === 'invalid-token' && (
        <>
          <Link ref={nextStep} className="button button--primary" to={paths.forgot.getHref()}>
            Request a new link
          </Link>
          <BackToLogIn />
        </>
      )}
      {reset.status === 'changed' && (
        <Link ref={nextStep} className="button button--primary" to={paths.login.getHref()}>
          Back to log in
        </Link>
      )}
      {(reset.status === 'editing' || busy) && (
        <>
          <FormAlert id={MESSAGE_ID}>{problem && problemMessage(problem)}</FormAlert>
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
          <BackToLogIn />
        </>
      )}
    </>
  );
}
