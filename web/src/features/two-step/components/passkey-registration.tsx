import { useState, type FormEvent } from 'react';
import type { Problem } from '../../../api/contract';
import { refusalMessage } from '../../../api/refusals';
import { fieldRefusal, useCommand } from '../../../api/use-command';
import { Button } from '../../../components/ui/button';
import { SetupActions } from './setup-actions';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import {
  usePasskeyRegistrationOptionsMutation,
  useRegisterPasskeyMutation,
  type ChangeConfirmation,
  type SetupBase,
} from '../api/two-step-api';
import { createPasskey, PasskeyCancelled, passkeysSupported } from '../webauthn';

const MESSAGE_ID = 'passkey-message';

function registrationRefusal(problem: Problem | null): string | null {
  if (problem === null) return null;
  return problem.code === 'VALIDATION_FAILED'
    ? 'Give the passkey a name, such as “Work laptop” (64 characters at most).'
    : refusalMessage(problem);
}

/** `onDone` gets the recovery codes of a first factor. */
type RegistrationProps = {
  base: SetupBase;
  onDone: (recoveryCodes: string[] | null) => void;
  onCancel?: () => void;
  confirmation?: ChangeConfirmation;
};

export function PasskeyRegistration({ base, onDone, onCancel, confirmation = {} }: RegistrationProps) {
  const [options] = usePasskeyRegistrationOptionsMutation();
  const [register] = useRegisterPasskeyMutation();
  const { problem, run, refuse } = useCommand();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [cancelled, setCancelled] = useState(false);

  if (!passkeysSupported())
    return <p>This browser cannot use passkeys: use an authenticator app, or another browser.</p>;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (name.trim() === '') return refuse(fieldRefusal('name'));
    setBusy(true);
    setCancelled(false);
    try {
      await run(async () => {
        const { options: creation, registration } = await options(base).unwrap();
        try {
          const response = await createPasskey(creation);
          onDone((await register({ base, registration, name, response, ...confirmation }).unwrap()).recoveryCodes);
        } catch (error) {
          if (!(error instanceof PasskeyCancelled)) throw error;
          setCancelled(true);
        }
      });
    } finally {
      setBusy(false);
    }
  }

  const message = cancelled
    ? 'No passkey was made: the browser’s window was closed. Try again when you are ready.'
    : registrationRefusal(problem);
  return (
    <form className="form two-step-setup" noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
      <FormAlert id={MESSAGE_ID}>{message}</FormAlert>
      <TextField
        label="Passkey name"
        name="name"
        hint="Where it lives, so you can tell your passkeys apart: “Work laptop”, “Phone”."
        value={name}
        maxLength={64}
        // The button that opened this form is gone: the keyboard continues here.
        autoFocus
        onChange={(event) => setName(event.target.value)}
        aria-invalid={(problem !== null && !cancelled) || undefined}
        aria-describedby={message ? MESSAGE_ID : undefined}
      />
      <SetupActions onCancel={onCancel}>
        <Button type="submit" busy={busy}>
          Create a passkey
        </Button>
      </SetupActions>
    </form>
  );
}
