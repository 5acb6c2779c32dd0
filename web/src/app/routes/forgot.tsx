import { AuthLayout } from '../../components/layout/auth-layout';
import { selectProductName } from '../../config/page-config';
import { ForgotPassword } from '../../features/forgot/components/forgot-password';
import { useAppSelector } from '../hooks';

export function ForgotRoute() {
  return (
    <AuthLayout productName={useAppSelector(selectProductName)}>
      <ForgotPassword />
    </AuthLayout>
  );
}
