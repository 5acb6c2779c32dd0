import '../two-step.css';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Problem } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { fieldRefusal, useCommand } from '../../../api/use-command';
import { ScreenHeader } from '../../../components/layout/screen-header';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { documentTitle, useDocumentTitle } from '../../../lib/document-title';
import { leaveTo } from '../../../lib/navigation';
import { useAppDispatch } from '../../../lib/store-hooks';
import {
  useGetSecondStepQuery,
  usePassWithCodeMutation,
  usePasskeySignInOptionsMutation,
  usePassWithPasskeyMutation,
  type SecondStepStatus,
} from '../api/two-step-api';
import { PasskeyCancelled, passkeysSupported, provePasskey } from '../webauthn';
import { FirstFactor } from './first-factor';

/** docs/console.md, Two-step sign-in. Someone without a factor whose organization requires one sets it up here. */
export function SecondStep({ redirect, productName }: { redirect: string; productName: string }) {
  const status = useGetSecondStepQuery();
  useDocumentTitle(
    documentTitle(status.data?.awaiting === 'enrolment' ? 'Set up two-step sign-in' : 'Two-step sign-in', productName),
  );
  if (status.isLoading) return <ScreenHeader title="Two-step sign-in">Checking your sign-in…</ScreenHeader>;
  if (status.data === undefined) {
    const ended = status.error !== undefined && problemOf(status.error).status === 401;
    return (
      <>
        <ScreenHeader title={ended ? 'Your sign-in has timed out' : 'Two-step sign-in'}>
          {ended
            ? 'The second step was not finished in time. Log in again to continue.'
            : refusalMessage(problemOf(status.error))}
        </ScreenHeader>
        <Link className="button button--primary" to={paths.login.getHref(redirect)} reloadDocument>
          Log in again
        </Link>
      </>
    );
  }
  if (status.data.awaiting === 'enrolment')
    return <FirstFactor status={status.data} redirect={redirect} productName={productName} />;
  return <ProveIt status={status.data} redirect={redirect} />;
}

const MESSAGE_ID = 'second-step-message';

function secondStepRefusal(problem: Problem | null, kind: 'app' | 'recovery'): string | null {
  if (problem === null) return null;
  if (problem.code === 'VALIDATION_FAILED')
    return kind === 'app' ? 'Enter the six-digit code your app shows.' : 'Enter one of your recovery codes.';
  if (problem.code === 'UNAUTHENTICATED') return 'Your sign-in has timed out: log in again.';
  return refusalMessage(problem);
}

function ProveIt({ status, redirect }: { status: SecondStepStatus; redirect: string }) {
  const dispatch = useAppDispatch();
  const [passWithCode] = usePassWithCodeMutation();
  const [passkeyOptions] = usePasskeySignInOptionsMutation();
  const [passWithPasskey] = usePassWithPasskeyMutation();
  const { problem, run, refuse } = useCommand();
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<'app' | 'recovery'>(status.methods.authenticatorApp ? 'app' : 'recovery');
  const [busy, setBusy] = useState<'code' | 'passkey' | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const withPasskey = status.methods.passkeys > 0 && passkeysSupported();
  // With an app, its code comes first; with passkeys only, the passkey does, and a recovery code is the way round.
  const passkeyFirst = !status.methods.authenticatorApp && withPasskey;
  const [showCodes, setShowCodes] = useState(!passkeyFirst);

  async function attempt(how: 'code' | 'passkey', pass: () => Promise<unknown>) {
    setBusy(how);
    setCancelled(false);
    const passed = await run(pass);
    if (passed) dispatch(leaveTo(redirect));
    else setBusy(null);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (code.trim() === '') return refuse(fieldRefusal('code'));
    void attempt('code', () => passWithCode(code).unwrap());
  }

  function signInWithPasskey() {
    void attempt('passkey', async () => {
      const { options, challenge } = await passkeyOptions().unwrap();
      try {
        await passWithPasskey({ challenge, response: await provePasskey(options) }).unwrap();
      } catch (error) {
        if (!(error instanceof PasskeyCancelled)) throw error;
        setCancelled(true);
        throw error;
      }
    });
  }

  const label = kind === 'app' ? 'Code from your authenticator app' : 'Recovery code';
  const message = cancelled
    ? 'The passkey was not used: the browser’s window was closed. Try again, or use a code.'
    : secondStepRefusal(problem, kind);
  const passkeyButton = (
    <Button
      type="button"
      variant={passkeyFirst ? 'primary' : 'secondary'}
      busy={busy === 'passkey'}
      disabled={busy !== null}
      onClick={signInWithPasskey}
    >
      Use a passkey
    </Button>
  );
  // The login's divider, written out: importing a module only the login page uses would split its chunk (bench/web).
  const or = (
    <div className="divider">
      <span className="divider__label">or</span>
    </div>
  );
  const switchKind = status.methods.authenticatorApp && status.methods.recoveryCodes > 0;
  return (
    <>
      <ScreenHeader title="Two-step sign-in">
        {status.methods.authenticatorApp
          ? 'Enter the code from your authenticator app to finish signing in.'
          : 'Use your passkey to finish signing in.'}
      </ScreenHeader>
      {passkeyFirst && (
        <div className="second-step__alternatives">
          {!showCodes && <FormAlert>{message}</FormAlert>}
          {passkeyButton}
          {!showCodes && status.methods.recoveryCodes > 0 && (
            <button type="button" className="link-button" onClick={() => setShowCodes(true)}>
              Use a recovery code instead
            </button>
          )}
          {showCodes && or}
        </div>
      )}
      {showCodes && (
        <form className="form" noValidate onSubmit={submit} aria-busy={busy !== null}>
          <FormAlert id={MESSAGE_ID}>{message}</FormAlert>
          <TextField
            key={kind}
            label={label}
            name="code"
            inputMode={kind === 'app' ? 'numeric' : 'text'}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            autoFocus
            value={code}
            readOnly={busy !== null}
            onChange={(event) => setCode(event.target.value)}
            hint={
              kind === 'app'
                ? `Signed in as ${status.email}.`
                : 'One of the ten codes you saved when you set up two-step sign-in. Each works once.'
            }
            aria-invalid={(problem !== null && !cancelled) || undefined}
            aria-describedby={message ? MESSAGE_ID : undefined}
          />
          <Button
            type="submit"
            variant={passkeyFirst ? 'secondary' : 'primary'}
            busy={busy === 'code'}
            disabled={busy !== null}
          >
            Continue
          </Button>
        </form>
      )}
      <div className="second-step__alternatives">
        {switchKind && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setKind(kind === 'app' ? 'recovery' : 'app');
              setCode('');
            }}
          >
            {kind === 'app' ? 'Use a recovery code instead' : 'Use a code from your app instead'}
          </button>
        )}
        {withPasskey && !passkeyFirst && (
          <>
            {or}
            {passkeyButton}
          </>
        )}
        <p className="second-step__other">
          Not you, or no way in?{' '}
          <Link to={paths.login.getHref(redirect)} reloadDocument>
            Log in as someone else
          </Link>
        </p>
      </div>
    </>
  );
}
