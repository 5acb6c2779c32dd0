import { useParams } from 'react-router';
import { AuthLayout } from '../../components/layout/auth-layout';
import { selectProductName } from '../../config/page-config-slice';
import { ResetPassword } from '../../features/reset/components/reset-password';
import { documentTitle, useDocumentTitle } from '../../lib/document-title';
import { useAppSelector } from '../../lib/store-hooks';

export function ResetRoute() {
  const { token = '' } = useParams();
  const productName = useAppSelector(selectProductName);
  useDocumentTitle(documentTitle('Reset your password', productName));
  return (
    <AuthLayout productName={productName}>
      <ResetPassword token={token} />
    </AuthLayout>
  );
}
