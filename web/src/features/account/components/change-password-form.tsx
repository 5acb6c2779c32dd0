import { useState, type FormEvent } from 'react';
import type { Problem } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { useChangePasswordMutation } from '../api/account-api';

const MESSAGE_ID = 'change-password-message';

type Check = 'missing' | 'mismatch';
const CHECK_WORDS: Record<Check, string> = {
  missing: 'Enter your current password and a new one.',
  mismatch: 'The two new passwords do not match.',
};

export function ChangePasswordForm() {
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const [fields, setFields] = useState({ currentPassword: '', newPassword: '', confirmation: '' });
  const [problem, setProblem] = useState<Problem | Check | null>(null);
  const [changed, setChanged] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChanged(false);
    if (fields.currentPassword === '' || fields.newPassword === '') return setProblem('missing');
    if (fields.newPassword !== fields.confirmation) return setProblem('mismatch');
    setProblem(null);
    try {
      await changePassword({ currentPassword: fields.currentPassword, newPassword: fields.newPassword }).unwrap();
      setFields({ currentPassword: '', newPassword: '', confirmation: '' });
      setChanged(true);
    } catch (error) {
      setProblem(problemOf(error));
    }
  }

  const message =
    problem === null ? null : typeof problem === 'string' ? CHECK_WORDS[problem] : refusalMessage(problem);
  const currentWrong = typeof problem === 'object' && problem?.code === 'WRONG_PASSWORD';
  const newRefused = problem === 'mismatch' || (typeof problem === 'object' && problem?.code === 'VALIDATION_FAILED');
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));
  return (
    <form
      className="form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-busy={isLoading}
      aria-label="Change password"
    >
      <FormAlert id={MESSAGE_ID}>{message}</FormAlert>
      <TextField
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        value={fields.currentPassword}
        onChange={set('currentPassword')}
        aria-invalid={currentWrong || undefined}
        aria-describedby={message ? MESSAGE_ID : undefined}
      />
      <TextField
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters, not a common password and not your e-mail address."
        value={fields.newPassword}
        onChange={set('newPassword')}
        aria-invalid={newRefused || undefined}
        aria-describedby={message ? MESSAGE_ID : undefined}
      />
      <TextField
        label="Confirm new password"
        name="confirmation"
        type="password"
        autoComplete="new-password"
        value={fields.confirmation}
        onChange={set('confirmation')}
        aria-invalid={problem === 'mismatch' || undefined}
        aria-describedby={message ? MESSAGE_ID : undefined}
      />
      <div className="form__actions">
        <Button type="submit" busy={isLoading}>
          Change password
        </Button>
      </div>
      <p className="form__status" role="status">
        {changed && 'Your password has been changed. Every other session has been signed out.'}
      </p>
    </form>
  );
}
