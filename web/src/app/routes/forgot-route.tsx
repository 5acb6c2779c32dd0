import { AuthLayout } from '../../components/layout/auth-layout';
import { selectProductName } from '../../config/page-config-slice';
import { ForgotPassword } from '../../features/forgot/components/forgot-password';
import { documentTitle, useDocumentTitle } from '../../lib/document-title';
import { useAppSelector } from '../../lib/store-hooks';

export function ForgotRoute() {
  const productName = useAppSelector(selectProductName);
  useDocumentTitle(documentTitle('Forgot your password?', productName));
  return (
    <AuthLayout productName={productName}>
      <ForgotPassword />
    </AuthLayout>
  );
}
