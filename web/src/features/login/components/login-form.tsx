import { useEffect, useRef, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store-hooks';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { INCORRECT_CREDENTIALS } from '../login-messages';
import { selectLoginBusy, selectLoginFailed, submitLogin } from '../login-slice';

type LoginFormProps = {
  /** An already checked same-origin path. */
  redirect: string;
  /** Shown until the first attempt. */
  queryError: string | null;
};

const MESSAGE_ID = 'login-message';

export function LoginForm({ redirect, queryError }: LoginFormProps) {
  const dispatch = useAppDispatch();
  const busy = useAppSelector(selectLoginBusy);
  const failed = useAppSelector(selectLoginFailed);
  const password = useRef<HTMLInputElement>(null);
  const message = failed ? INCORRECT_CREDENTIALS : busy ? null : queryError;

  // The disabled button lost the focus: hand it to the field the user most likely retypes.
  useEffect(() => {
    if (!failed) return;
    password.current?.focus();
    password.current?.select();
  }, [failed]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const credentials = { username: String(form.get('username')), password: String(form.get('password')) };
    void dispatch(submitLogin({ credentials, redirect }));
  }

  // noValidate: type=email is for keyboards and autofill, yet any username is accepted.
  return (
    <>
      <FormAlert id={MESSAGE_ID}>{message}</FormAlert>
      <form className="form" noValidate onSubmit={submit} aria-busy={busy}>
        <TextField
          label="E-mail or username"
          name="username"
          type="email"
          placeholder="e-mail or username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          aria-invalid={failed || undefined}
          aria-describedby={message ? MESSAGE_ID : undefined}
          disabled={busy}
        />
        <TextField
          ref={password}
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          aria-invalid={failed || undefined}
          aria-describedby={message ? MESSAGE_ID : undefined}
          disabled={busy}
        />
        <p className="form__aside">
          <Link to={paths.forgot.getHref()}>Forgot your password?</Link>
        </p>
        <Button type="submit" busy={busy}>
          Log in
        </Button>
      </form>
    </>
  );
}
