import { useAppDispatch } from '../../../lib/store-hooks';
import { Button } from '../../../components/ui/button';
import { signInWithGoogle } from '../sign-in-with-google';

type GoogleSignInButtonProps = {
  /** So that a Google sign-in lands where a password login would. */
  redirect: string | null;
  /** While a password login is on its way, a second way to sign in is not offered. */
  disabled?: boolean;
};

export function GoogleSignInButton({ redirect, disabled = false }: GoogleSignInButtonProps) {
  const dispatch = useAppDispatch();
  return (
    <Button type="button" variant="secondary" disabled={disabled} onClick={() => dispatch(signInWithGoogle(redirect))}>
      <svg className="button__icon" viewBox="0 0 20 20" aria-hidden="true" fill="none" strokeWidth="3.2">
        <path d="M15.6 5.1A7.4 7.4 0 0 0 4.2 6" stroke="#ea4335" />
        <path d="M4.2 6a7.4 7.4 0 0 0 0 8" stroke="#fbbc05" />
        <path d="M4.2 14a7.4 7.4 0 0 0 11.7 1.2" stroke="#34a853" />
        <path d="M15.9 15.2A7.4 7.4 0 0 0 17.4 10H10" stroke="#4285f4" />
      </svg>
      Sign in with Google
    </Button>
  );
}
