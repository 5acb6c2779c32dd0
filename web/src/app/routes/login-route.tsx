import { useLocation } from 'react-router';
import { sameOriginPath } from '@libs/web-rules/safe-redirect-path';
import { AuthLayout } from '../../components/layout/auth-layout';
import { ScreenHeader } from '../../components/layout/screen-header';
import { Divider } from '../../components/ui/divider';
import { selectProductName } from '../../config/page-config-slice';
import { GoogleSignInButton } from '../../features/google/components/google-sign-in-button';
import { LoginForm } from '../../features/login/components/login-form';
import { MigrationNotice } from '../../features/login/components/migration-notice';
import { hasMigrationMarker, queryErrorMessage } from '../../features/login/login-messages';
import { selectLoginBusy } from '../../features/login/login-slice';
import { documentTitle, useDocumentTitle } from '../../lib/document-title';
import { useAppSelector } from '../../lib/store-hooks';

export function LoginRoute() {
  const { search } = useLocation();
  const productName = useAppSelector(selectProductName);
  const busy = useAppSelector(selectLoginBusy);
  // The server's own rule: a normalised path on this origin, or none (then '/', and Google gets no redirect).
  const redirect = sameOriginPath(new URLSearchParams(search).get('redirect')) ?? null;
  useDocumentTitle(documentTitle('Log in', productName));
  return (
    <AuthLayout productName={productName}>
      <ScreenHeader title={`Welcome back to ${productName},`}>enter your details to log in!</ScreenHeader>
      {hasMigrationMarker(search) && <MigrationNotice productName={productName} />}
      <LoginForm redirect={redirect ?? '/'} queryError={queryErrorMessage(search)} />
      <Divider>{'- or - '}</Divider>
      <GoogleSignInButton redirect={redirect} disabled={busy} />
    </AuthLayout>
  );
}
