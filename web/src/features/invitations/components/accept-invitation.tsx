import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useAppDispatch } from '../../../lib/store-hooks';
import type { Problem } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { ScreenHeader } from '../../../components/layout/screen-header';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { documentTitle, useDocumentTitle } from '../../../lib/document-title';
import { leaveTo } from '../../../lib/navigation';
import { useAcceptInvitationMutation, useGetInvitationQuery } from '../api/invitations-api';

const MESSAGE_ID = 'invitation-message';

type Check = 'missing' | 'mismatch';
const CHECK_WORDS: Record<Check, string> = {
  missing: 'Choose a password.',
  mismatch: 'The two passwords do not match.',
};

export function AcceptInvitation({ token, productName }: { token: string; productName: string }) {
  const dispatch = useAppDispatch();
  const invitation = useGetInvitationQuery(token);
  const [accept, { isLoading, isSuccess }] = useAcceptInvitationMutation();
  const [problem, setProblem] = useState<Problem | Check | null>(null);
  const details = invitation.data;
  const spent =
    (invitation.error !== undefined && problemOf(invitation.error).code === 'INVALID_TOKEN') ||
    (typeof problem === 'object' && problem?.code === 'INVALID_TOKEN');
  useDocumentTitle(
    documentTitle(details === undefined ? 'Invitation' : `Join ${details.organizationName}`, productName),
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    if (password === '') return setProblem('missing');
    if (password !== form.get('confirmation')) return setProblem('mismatch');
    setProblem(null);
    try {
      await accept({ token, password }).unwrap();
      // A full page load: the new session cookie is in place, and the console is the server's to answer.
      dispatch(leaveTo(paths.console.getHref()));
    } catch (error) {
      setProblem(problemOf(error));
    }
  }

  if (invitation.isLoading) {
    return <ScreenHeader title="Your invitation">Checking your invitation…</ScreenHeader>;
  }
  if (spent || details === undefined) {
    return (
      <>
        <ScreenHeader title="This invitation cannot be used">
          Ask whoever invited you to add you again: a new invitation is sent at once.
        </ScreenHeader>
        <FormAlert>
          {refusalMessage(spent ? { status: 400, code: 'INVALID_TOKEN', detail: '' } : problemOf(invitation.error))}
        </FormAlert>
        <Link className="button button--primary" to={paths.login.getHref()}>
          Back to log in
        </Link>
      </>
    );
  }

  if (details.singleSignOn !== null) {
    // The organization enforces its single sign-on for this address: a password here could never be used.
    return (
      <>
        <ScreenHeader title={`Join ${details.organizationName}`}>
          {details.organizationName} signs you in through its single sign-on. Continue there as {details.email}, and you
          are in.
        </ScreenHeader>
        <a className="button button--primary" href={details.singleSignOn}>
          Join with single sign-on
        </a>
      </>
    );
  }

  const message =
    problem === null ? null : typeof problem === 'string' ? CHECK_WORDS[problem] : refusalMessage(problem);
  const busy = isLoading || isSuccess;
  return (
    <>
      <ScreenHeader title={`Join ${details.organizationName}`}>
        Choose a password for {details.email}, and you are in.
      </ScreenHeader>
      <form className="form" noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
        <FormAlert id={MESSAGE_ID}>{message}</FormAlert>
        <TextField label="E-mail" name="email" type="email" autoComplete="username" value={details.email} readOnly />
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters, not a common password and not your e-mail address."
          aria-invalid={(problem !== null && problem !== 'mismatch') || undefined}
          aria-describedby={message ? MESSAGE_ID : undefined}
        />
        <TextField
          label="Confirm new password"
          name="confirmation"
          type="password"
          autoComplete="new-password"
          aria-invalid={problem === 'mismatch' || undefined}
          aria-describedby={message ? MESSAGE_ID : undefined}
        />
        <Button type="submit" busy={busy}>
          Join {details.organizationName}
        </Button>
      </form>
    </>
  );
}
