import '../two-step.css';
import { useState, type FormEvent } from 'react';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { useCommand } from '../../../api/use-command';
import { RemoveButton } from '../../../components/console/remove-button';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FormAlert } from '../../../components/ui/form-alert';
import { Notice } from '../../../components/ui/notice';
import { TextField } from '../../../components/ui/text-field';
import { formatDateTime } from '../../../lib/date-time';
import {
  useGetSecondFactorsQuery,
  useRegenerateRecoveryCodesMutation,
  useRemoveAuthenticatorAppMutation,
  useRemovePasskeyMutation,
  useRenamePasskeyMutation,
  type ChangeConfirmation,
  type ConfirmWith,
  type SecondFactors,
} from '../api/two-step-api';
import { AuthenticatorAppSetup } from './authenticator-app-setup';
import { PasskeyRegistration } from './passkey-registration';
import { RecoveryCodes } from './recovery-codes';

const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

const CONFIRM_ID = 'two-step-confirmation';

const confirmationOf = (confirmWith: ConfirmWith, value: string): ChangeConfirmation =>
  confirmWith === 'recent-sign-in' || value === ''
    ? {}
    : confirmWith === 'password'
      ? { password: value }
      : { code: value };

/** docs/console.md, Account: the confirmation is typed once above the changes. */
export function TwoStepSettings({ productName }: { productName: string }) {
  const { data, isLoading, error } = useGetSecondFactorsQuery();
  const [adding, setAdding] = useState<'app' | 'passkey' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [proof, setProof] = useState('');
  const command = useCommand();
  const { problem, done } = command;

  if (isLoading) return <p className="muted">Loading your second factors…</p>;
  if (data === undefined) return <FormAlert>{refusalMessage(problemOf(error))}</FormAlert>;
  const anyFactor = data.authenticatorApp !== null || data.passkeys.length > 0;
  const confirmation = confirmationOf(data.confirmWith, proof);
  // A code works once: once a change used it, the field is emptied for the next one. A password stays while the page
  // does.
  const spent = () => {
    if (data.confirmWith === 'code') setProof('');
  };
  const run: Run = async (change, said) => {
    const ok = await command.run(change, said);
    if (ok) spent();
    return ok;
  };
  const added = (recoveryCodes: string[] | null) => {
    setAdding(null);
    setCodes(recoveryCodes);
    spent();
  };

  return (
    <div className="two-step-settings">
      {data.requiredBy.length > 0 && (
        <Notice tone="info">
          {data.requiredBy.map(({ name }) => name).join(', ')} {data.requiredBy.length > 1 ? 'require' : 'requires'}{' '}
          two-step sign-in: keep at least one way.
        </Notice>
      )}
      {!anyFactor && adding === null && (
        <p>
          Two-step sign-in is off: your password alone signs you in. Add a second step so a stolen password is not
          enough.
        </p>
      )}
      <ConfirmationField confirmWith={data.confirmWith} value={proof} onChange={setProof} />
      <FormAlert>{problem && refusalMessage(problem)}</FormAlert>
      {codes !== null && (
        <div className="two-step-settings__codes">
          <RecoveryCodes codes={codes} productName={productName}>
            <Button type="button" variant="secondary" onClick={() => setCodes(null)}>
              I have saved them
            </Button>
          </RecoveryCodes>
        </div>
      )}

      <div className="two-step-settings__part">
        <h3 className="two-step-settings__heading">Authenticator app</h3>
        {data.authenticatorApp !== null ? (
          <ul className="rows" aria-label="Authenticator app">
            <li className="row">
              <div className="row__main">
                <span className="row__title">
                  Codes from your app <span className="tag tag--on">On</span>
                </span>
                <span className="row__detail">Since {when(data.authenticatorApp.enrolledAt)}</span>
              </div>
              <div className="row__actions">
                <RemoveAppButton run={run} confirmation={confirmation} />
              </div>
            </li>
          </ul>
        ) : adding === 'app' ? (
          <AuthenticatorAppSetup
            base="/account/two-step"
            confirmation={confirmation}
            onDone={added}
            onCancel={() => setAdding(null)}
          />
        ) : (
          <Button type="button" variant="secondary" disabled={adding !== null} onClick={() => setAdding('app')}>
            Set up an authenticator app
          </Button>
        )}
      </div>

      <div className="two-step-settings__part">
        <h3 className="two-step-settings__heading">Passkeys</h3>
        {data.passkeys.length > 0 && <PasskeyList passkeys={data.passkeys} run={run} confirmation={confirmation} />}
        {adding === 'passkey' ? (
          <PasskeyRegistration
            base="/account/two-step"
            confirmation={confirmation}
            onDone={added}
            onCancel={() => setAdding(null)}
          />
        ) : (
          <Button type="button" variant="secondary" disabled={adding !== null} onClick={() => setAdding('passkey')}>
            Add a passkey
          </Button>
        )}
      </div>

      {data.recoveryCodes !== null && (
        <RecoveryCodeStatus codes={data.recoveryCodes} onNew={added} run={run} confirmation={confirmation} />
      )}
      <p className="form__status" role="status">
        {done}
      </p>
    </div>
  );
}

type Run = ReturnType<typeof useCommand>['run'];

const CONFIRM_WORDS: Record<Exclude<ConfirmWith, 'recent-sign-in'>, { label: string; hint: string }> = {
  password: {
    label: 'Your current password',
    hint: 'Each change below needs it, so a session left open is not enough. You will get an e-mail about every change.',
  },
  code: {
    label: 'A code from your authenticator app, or a recovery code',
    hint: 'Each change below needs one (a code works once), so a session left open is not enough. You will get an e-mail about every change.',
  },
};

function ConfirmationField({
  confirmWith,
  value,
  onChange,
}: {
  confirmWith: ConfirmWith;
  value: string;
  onChange: (value: string) => void;
}) {
  if (confirmWith === 'recent-sign-in') {
    return (
      <p className="muted">
        Changes need a sign-in of the last 5 minutes: if you are asked, sign out and sign in again. You will get an
        e-mail about every change.
      </p>
    );
  }
  const words = CONFIRM_WORDS[confirmWith];
  return (
    <TextField
      id={CONFIRM_ID}
      label={words.label}
      name={confirmWith === 'password' ? 'current-password' : 'code'}
      type={confirmWith === 'password' ? 'password' : 'text'}
      autoComplete={confirmWith === 'password' ? 'current-password' : 'one-time-code'}
      hint={words.hint}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

function RemoveAppButton({ run, confirmation }: { run: Run; confirmation: ChangeConfirmation }) {
  const [remove] = useRemoveAuthenticatorAppMutation();
  return (
    <RemoveButton
      item="the authenticator app"
      consequence="Its codes will no longer sign you in."
      remove={() => run(() => remove(confirmation).unwrap(), 'The authenticator app is removed.')}
    />
  );
}

function PasskeyList({
  passkeys,
  run,
  confirmation,
}: {
  passkeys: SecondFactors['passkeys'];
  run: Run;
  confirmation: ChangeConfirmation;
}) {
  const [remove] = useRemovePasskeyMutation();
  const [renaming, setRenaming] = useState<string | null>(null);
  return (
    <ul className="rows" aria-label="Passkeys">
      {passkeys.map((passkey) => (
        <li className="row" key={passkey.id}>
          {renaming === passkey.id ? (
            <RenamePasskey passkey={passkey} run={run} confirmation={confirmation} onDone={() => setRenaming(null)} />
          ) : (
            <>
              <div className="row__main">
                <span className="row__title">{passkey.name}</span>
                <span className="row__detail">
                  Added {when(passkey.registeredAt)} ·{' '}
                  {passkey.lastUsedAt === null ? 'not used yet' : <>last used {when(passkey.lastUsedAt)}</>}
                </span>
              </div>
              <div className="row__actions">
                <button type="button" className="link-button" onClick={() => setRenaming(passkey.id)}>
                  Rename<span className="visually-hidden"> {passkey.name}</span>
                </button>
                <RemoveButton
                  item={`the passkey “${passkey.name}”`}
                  consequence="It will no longer sign you in."
                  remove={() =>
                    run(
                      () => remove({ id: passkey.id, ...confirmation }).unwrap(),
                      `The passkey “${passkey.name}” is removed.`,
                    )
                  }
                />
              </div>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

type RenameProps = {
  passkey: SecondFactors['passkeys'][number];
  run: Run;
  confirmation: ChangeConfirmation;
  onDone: () => void;
};

function RenamePasskey({ passkey, run, confirmation, onDone }: RenameProps) {
  const [rename, renaming] = useRenamePasskeyMutation();
  const [name, setName] = useState(passkey.name);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (
      await run(
        () => rename({ id: passkey.id, name, ...confirmation }).unwrap(),
        `The passkey is now “${name.trim()}”.`,
      )
    )
      onDone();
  }
  return (
    <form className="row__main form form--inline" noValidate onSubmit={(event) => void submit(event)}>
      <TextField
        label={`New name for “${passkey.name}”`}
        name="name"
        value={name}
        maxLength={64}
        autoFocus
        onChange={(event) => setName(event.target.value)}
      />
      <div className="form__actions">
        <Button type="submit" className="button--small" busy={renaming.isLoading}>
          Save
        </Button>
        <Button type="button" variant="quiet" className="button--small" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

type RecoveryCodeStatusProps = {
  codes: NonNullable<SecondFactors['recoveryCodes']>;
  onNew: (codes: string[]) => void;
  run: Run;
  confirmation: ChangeConfirmation;
};

function RecoveryCodeStatus({ codes, onNew, run, confirmation }: RecoveryCodeStatusProps) {
  const [regenerate, regenerating] = useRegenerateRecoveryCodesMutation();
  const [asking, setAsking] = useState(false);
  async function confirm() {
    await run(async () => onNew((await regenerate(confirmation).unwrap()).recoveryCodes));
    setAsking(false);
  }
  return (
    <div className="two-step-settings__part">
      <h3 className="two-step-settings__heading">Recovery codes</h3>
      <p>
        {codes.remaining} of 10 left, made {when(codes.generatedAt)}. Each signs you in once when your app or passkey is
        not at hand.
      </p>
      <Button type="button" variant="secondary" onClick={() => setAsking(true)}>
        Get new recovery codes
      </Button>
      {asking && (
        <ConfirmDialog
          title="Get new recovery codes?"
          confirm="Get new codes"
          busy={regenerating.isLoading}
          onConfirm={() => void confirm()}
          onCancel={() => setAsking(false)}
        >
          Your current recovery codes stop working at once.
        </ConfirmDialog>
      )}
    </div>
  );
}
