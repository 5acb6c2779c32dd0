import { useEffect, useRef, useState, type FormEvent } from 'react';
import { refusalMessage } from '../../../api/refusals';
import { fieldRefusal, useCommand } from '../../../api/use-command';
import { Button } from '../../../components/ui/button';
import { SetupActions } from './setup-actions';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import {
  useConfirmAuthenticatorAppMutation,
  useStartAuthenticatorAppMutation,
  type ChangeConfirmation,
  type SetupBase,
} from '../api/two-step-api';

const MESSAGE_ID = 'authenticator-app-message';

/** The first code the app shows proves the scan worked. `onDone` gets the recovery codes of a first factor. */
type SetupProps = {
  base: SetupBase;
  onDone: (recoveryCodes: string[] | null) => void;
  onCancel?: () => void;
  confirmation?: ChangeConfirmation;
};

export function AuthenticatorAppSetup({ base, onDone, onCancel, confirmation = {} }: SetupProps) {
  const [start, started] = useStartAuthenticatorAppMutation();
  const [confirm, confirming] = useConfirmAuthenticatorAppMutation();
  const { problem, run, refuse } = useCommand();
  const [code, setCode] = useState('');
  const setup = started.data;
  const steps = useRef<HTMLOListElement>(null);
  // The button that started it is gone: the focus goes to what comes next, so the keyboard and a screen reader follow.
  useEffect(() => {
    if (setup !== undefined) steps.current?.focus();
  }, [setup]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (setup === undefined) return;
    if (code.trim() === '') return refuse(fieldRefusal('code'));
    // The app's first code proves the scan; the password (an app is the first way to give codes) confirms the change.
    const password = confirmation.password === undefined ? {} : { password: confirmation.password };
    await run(async () =>
      onDone((await confirm({ base, setup: setup.setup, code, ...password }).unwrap()).recoveryCodes),
    );
  }

  useEffect(() => {
    void start(base);
  }, [start, base]);

  if (setup === undefined) {
    return (
      <div className="two-step-setup">
        <p>
          Use an app such as Google Authenticator, Microsoft Authenticator, 1Password or Bitwarden: it shows a new
          six-digit code every 30 seconds.
        </p>
        {started.isError ? (
          <>
            <FormAlert>The setup could not start: please try again.</FormAlert>
            <SetupActions onCancel={onCancel}>
              <Button type="button" onClick={() => void start(base)}>
                Try again
              </Button>
            </SetupActions>
          </>
        ) : (
          <p className="muted" role="status">
            Preparing a QR code…
          </p>
        )}
      </div>
    );
  }

  const message =
    problem === null
      ? null
      : problem.code === 'VALIDATION_FAILED' && problem.field !== 'setup'
        ? 'Enter the six-digit code the app shows.'
        : refusalMessage(problem);
  return (
    <form
      className="two-step-setup form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-busy={confirming.isLoading}
    >
      <ol className="two-step-setup__steps" ref={steps} tabIndex={-1} aria-label="Set up the app">
        <li>
          <p>Scan this QR code with the app.</p>
          <img
            className="two-step-setup__qr"
            src={setup.qrCode}
            width={200}
            height={200}
            alt="QR code for the authenticator app"
          />
          <p className="two-step-setup__secret">
            Cannot scan it? Enter this key in the app instead:{' '}
            <code aria-label={`Key ${setup.secret.split('').join(' ')}`}>{groups(setup.secret)}</code>
          </p>
        </li>
        <li>
          <FormAlert id={MESSAGE_ID}>{message}</FormAlert>
          <TextField
            label="Code from the app"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            className="field__input two-step-setup__code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            aria-invalid={problem !== null || undefined}
            aria-describedby={message ? MESSAGE_ID : undefined}
          />
        </li>
      </ol>
      <SetupActions onCancel={onCancel}>
        <Button type="submit" busy={confirming.isLoading}>
          Turn on
        </Button>
      </SetupActions>
    </form>
  );
}

/** As the apps ask for it. */
const groups = (secret: string): string => secret.replace(/(.{4})/g, '$1 ').trim();
