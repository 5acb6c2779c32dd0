import { useState } from 'react';
import { ScreenHeader } from '../../../components/layout/screen-header';
import { Button } from '../../../components/ui/button';
import { leaveTo } from '../../../lib/navigation';
import { useAppDispatch } from '../../../lib/store-hooks';
import type { SecondStepStatus } from '../api/two-step-api';
import { passkeysSupported } from '../webauthn';
import { AuthenticatorAppSetup } from './authenticator-app-setup';
import { PasskeyRegistration } from './passkey-registration';
import { RecoveryCodes } from './recovery-codes';

export function FirstFactor({
  status,
  redirect,
  productName,
}: {
  status: SecondStepStatus;
  redirect: string;
  productName: string;
}) {
  const dispatch = useAppDispatch();
  const [way, setWay] = useState<'app' | 'passkey' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [done, setDone] = useState(false);
  const requiredBy = status.requiredBy.length === 0 ? 'Your organization' : status.requiredBy.join(', ');

  if (done) {
    return (
      <>
        <ScreenHeader title="Two-step sign-in is on">
          From now on you sign in with your password and a second step.
        </ScreenHeader>
        {codes === null ? (
          <Button type="button" onClick={() => dispatch(leaveTo(redirect))}>
            Continue
          </Button>
        ) : (
          <RecoveryCodes codes={codes} productName={productName}>
            <Button type="button" onClick={() => dispatch(leaveTo(redirect))}>
              I have saved them, continue
            </Button>
          </RecoveryCodes>
        )}
      </>
    );
  }
  const finished = (recoveryCodes: string[] | null) => {
    setCodes(recoveryCodes);
    setDone(true);
  };
  return (
    <>
      <ScreenHeader title="Set up two-step sign-in">
        {requiredBy} {status.requiredBy.length > 1 ? 'require' : 'requires'} a second step when you sign in. Set one up
        now to continue as {status.email}.
      </ScreenHeader>
      {way === null && (
        <div className="first-factor__choices">
          <Button type="button" onClick={() => setWay('app')}>
            Use an authenticator app
          </Button>
          {passkeysSupported() && (
            <Button type="button" variant="secondary" onClick={() => setWay('passkey')}>
              Use a passkey
            </Button>
          )}
        </div>
      )}
      {way === 'app' && (
        <AuthenticatorAppSetup base="/session/second-step" onDone={finished} onCancel={() => setWay(null)} />
      )}
      {way === 'passkey' && (
        <PasskeyRegistration base="/session/second-step" onDone={finished} onCancel={() => setWay(null)} />
      )}
    </>
  );
}
