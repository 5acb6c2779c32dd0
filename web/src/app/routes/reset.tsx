import { useParams } from 'react-router';
import { AuthLayout } from '../../components/layout/auth-layout';
import { selectProductName } from '../../config/page-config';
import { ResetPassword } from '../../features/reset/components/reset-password';
import { useAppSelector } from '../hooks';

export function ResetRoute() {
  const { token = '' } = useParams();
  return (
    <AuthLayout productName={useAppSelector(selectProductName)}>
      <ResetPassword token={token} />
    </AuthLayout>
  );
}
