import { useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../../lib/store-hooks';
import { BackToLogIn } from '../../../components/layout/back-to-log-in';
import { ScreenHeader } from '../../../components/layout/screen-header';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { selectForgotStatus, sendResetLink } from '../forgot-slice';
import { isValidResetEmail } from '@libs/domain/email/is-valid-reset-email';

export function ForgotPassword() {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectForgotStatus);
  const [email, setEmail] = useState('');
  // Surrounding spaces come from autofill and phone keyboards, never from the address.
  const address = email.trim();
  const valid = isValidResetEmail(address);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (valid) void dispatch(sendResetLink(address));
  }

  return (
    <>
      <ScreenHeader title="Forgot your password?">
        {status === 'sent'
          ? 'Password reset link has been sent to your email.'
          : "Enter your email address and we'll send you a link to reset your password."}
      </ScreenHeader>
      {status !== 'sent' && (
        <form className="form" noValidate onSubmit={submit} aria-busy={status === 'processing'}>
          <TextField
            label="E-mail address"
            name="email"
            type="email"
            placeholder="your e-mail address"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button type="submit" disabled={!valid} busy={status === 'processing'}>
            Send
          </Button>
        </form>
      )}
      <BackToLogIn />
    </>
  );
}
