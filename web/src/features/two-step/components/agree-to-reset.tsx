import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Problem } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { ScreenHeader } from '../../../components/layout/screen-header';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { documentTitle, useDocumentTitle } from '../../../lib/document-title';
import { useConfirmTwoStepResetMutation, useGetTwoStepResetValidityQuery } from '../api/two-step-api';

const MESSAGE_ID = 'two-step-reset-message';

/** docs/console.md, Two-step sign-in: the password proves it is the person. */
export function AgreeToReset({ token, productName }: { token: string; productName: string }) {
  const validity = useGetTwoStepResetValidityQuery(token);
  const [agree, { isLoading, isSuccess }] = useConfirmTwoStepResetMutation();
  const [problem, setProblem] = useState<Problem | null>(null);
  useDocumentTitle(documentTitle('Reset two-step sign-in', productName));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setProblem(null);
    try {
      await agree({ token, ...(password === '' ? {} : { password }) }).unwrap();
    } catch (error) {
      setProblem(problemOf(error));
    }
  }

  if (validity.isLoading) return <ScreenHeader title="Reset two-step sign-in">Checking your link…</ScreenHeader>;
  if (isSuccess) {
    return (
      <>
        <ScreenHeader title="Two-step sign-in is reset">
          Your authenticator app, passkeys and recovery codes no longer work. Sign in with your password; if an
          organization of yours requires two-step sign-in, you will set up a new way first.
        </ScreenHeader>
        <Link className="button button--primary" to={paths.login.getHref()}>
          Go to log in
        </Link>
      </>
    );
  }
  const details = validity.data;
  if (details === undefined || !details.valid || problem?.code === 'INVALID_TOKEN') {
    return (
      <>
        <ScreenHeader title="This link cannot be used">
          It was used already, or it has expired. Nothing was changed: ask the owner to send a new one if you still need
          it.
        </ScreenHeader>
        <Link className="button button--primary" to={paths.login.getHref()}>
          Back to log in
        </Link>
      </>
    );
  }

  const message = problem === null ? null : refusalMessage(problem);
  return (
    <>
      <ScreenHeader title="Reset two-step sign-in?">
        An owner of {details.organizationName} asked to remove your second factors, for example because you lost your
        phone.
      </ScreenHeader>
      <form className="form" noValidate onSubmit={(event) => void submit(event)} aria-busy={isLoading}>
        <p>
          If you agree, your authenticator app, passkeys and recovery codes stop working in every organization you
          belong to, and your password alone signs you in until you set up a new way. If you did not ask for this, close
          this page: nothing changes.
        </p>
        <FormAlert id={MESSAGE_ID}>{message}</FormAlert>
        {details.passwordRequired && (
          <TextField
            label="Your password"
            name="password"
            type="password"
            autoComplete="current-password"
            aria-invalid={problem !== null || undefined}
            aria-describedby={message ? MESSAGE_ID : undefined}
          />
        )}
        <Button type="submit" busy={isLoading}>
          Remove my second factors
        </Button>
      </form>
    </>
  );
}
