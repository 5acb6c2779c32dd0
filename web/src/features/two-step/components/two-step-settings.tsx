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
  type SecondFactors,
} from '../api/two-step-api';
import { AuthenticatorAppSetup } from './authenticator-app-setup';
import { PasskeyRegistration } from './passkey-registration';
import { RecoveryCodes } from './recovery-codes';

const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

/** docs/console.md, Account: the second factors of the signed-in person, set up, renamed and removed. */
export function TwoStepSettings({ productName }: { productName: string }) {
  const { data, isLoading, error } = useGetSecondFactorsQuery();
  const [adding, setAdding] = useState<'app' | 'passkey' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const { problem, done, run } = useCommand();

  if (isLoading) return <p className="muted">Loading your second factors…</p>;
  if (data === undefined) return <FormAlert>{refusalMessage(problemOf(error))}</FormAlert>;
  const anyFactor = data.authenticatorApp !== null || data.passkeys.length > 0;
  const added = (recoveryCodes: string[] | null) => {
    setAdding(null);
    setCodes(recoveryCodes);
  };

  return (
    <div className="two-step-settings">
      {data.requiredBy.length > 0 && (
        <Notice tone="info">{data.requiredBy.map(({ name }) => name).join(', ')} {data.requiredBy.length > 1 ? 'require' : 'requires'} two-step sign-in: keep at least one way.</Notice>
      )}
      {!anyFactor && adding === null && <p>Two-step sign-in is off: your password alone signs you in. Add a second step so a stolen password is not enough.</p>}
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
                <RemoveAppButton run={run} />
              </div>
            </li>
          </ul>
        ) : adding === 'app' ? (
          <AuthenticatorAppSetup base="/account/two-step" onDone={added} onCancel={() => setAdding(null)} />
        ) : (
          <Button type="button" variant="secondary" disabled={adding !== null} onClick={() => setAdding('app')}>
            Set up an authenticator app
          </Button>
        )}
      </div>

      <div className="two-step-settings__part">
        <h3 className="two-step-settings__heading">Passkeys</h3>
        {data.passkeys.length > 0 && <PasskeyList passkeys={data.passkeys} run={run} />}
        {adding === 'passkey' ? (
          <PasskeyRegistration base="/account/two-step" onDone={added} onCancel={() => setAdding(null)} />
        ) : (
          <Button type="button" variant="secondary" disabled={adding !== null} onClick={() => setAdding('passkey')}>
            Add a passkey
          </Button>
        )}
      </div>

      {data.recoveryCodes !== null && <RecoveryCodeStatus codes={data.recoveryCodes} onNew={setCodes} run={run} />}
      <p className="form__status" role="status">
        {done}
      </p>
    </div>
  );
}

type Run = ReturnType<typeof useCommand>['run'];

function RemoveAppButton({ run }: { run: Run }) {
  const [remove] = useRemoveAuthenticatorAppMutation();
  return (
    <RemoveButton
      item="the authenticator app"
      consequence="Its codes will no longer sign you in."
      remove={() => run(() => remove().unwrap(), 'The authenticator app is removed.')}
    />
  );
}

function PasskeyList({ passkeys, run }: { passkeys: SecondFactors['passkeys']; run: Run }) {
  const [remove] = useRemovePasskeyMutation();
  const [renaming, setRenaming] = useState<string | null>(null);
  return (
    <ul className="rows" aria-label="Passkeys">
      {passkeys.map((passkey) => (
        <li className="row" key={passkey.id}>
          {renaming === passkey.id ? (
            <RenamePasskey passkey={passkey} run={run} onDone={() => setRenaming(null)} />
          ) : (
            <>
              <div className="row__main">
                <span className="row__title">{passkey.name}</span>
                <span className="row__detail">
                  Added {when(passkey.registeredAt)} · {passkey.lastUsedAt === null ? 'not used yet' : <>last used {when(passkey.lastUsedAt)}</>}
                </span>
              </div>
              <div className="row__actions">
                <button type="button" className="link-button" onClick={() => setRenaming(passkey.id)}>
                  Rename<span className="visually-hidden"> {passkey.name}</span>
                </button>
                <RemoveButton
                  item={`the passkey “${passkey.name}”`}
                  consequence="It will no longer sign you in."
                  remove={() => run(() => remove(passkey.id).unwrap(), `The passkey “${passkey.name}” is removed.`)}
                />
              </div>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function RenamePasskey({ passkey, run, onDone }: { passkey: SecondFactors['passkeys'][number]; run: Run; onDone: () => void }) {
  const [rename, renaming] = useRenamePasskeyMutation();
  const [name, setName] = useState(passkey.name);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (await run(() => rename({ id: passkey.id, name }).unwrap(), `The passkey is now “${name.trim()}”.`)) onDone();
  }
  return (
    <form className="row__main form form--inline" noValidate onSubmit={(event) => void submit(event)}>
      <TextField label={`New name for “${passkey.name}”`} name="name" value={name} maxLength={64} autoFocus onChange={(event) => setName(event.target.value)} />
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

function RecoveryCodeStatus({ codes, onNew, run }: { codes: NonNullable<SecondFactors['recoveryCodes']>; onNew: (codes: string[]) => void; run: Run }) {
  const [regenerate, regenerating] = useRegenerateRecoveryCodesMutation();
  const [asking, setAsking] = useState(false);
  async function confirm() {
    await run(async () => onNew((await regenerate().unwrap()).recoveryCodes));
    setAsking(false);
  }
  return (
    <div className="two-step-settings__part">
      <h3 className="two-step-settings__heading">Recovery codes</h3>
      <p>
        {codes.remaining} of 10 left, made {when(codes.generatedAt)}. Each signs you in once when your app or passkey is not at hand.
      </p>
      <Button type="button" variant="secondary" onClick={() => setAsking(true)}>
        Get new recovery codes
      </Button>
      {asking && (
        <ConfirmDialog title="Get new recovery codes?" confirm="Get new codes" busy={regenerating.isLoading} onConfirm={() => void confirm()} onCancel={() => setAsking(false)}>
          Your current recovery codes stop working at once.
        </ConfirmDialog>
      )}
    </div>
  );
}
