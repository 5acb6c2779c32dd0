import type { Problem } from '../../../api/contract';
import { refusalMessage } from '../../../api/refusals';
import { AuthLayout } from '../../../components/layout/auth-layout';
import { ScreenHeader } from '../../../components/layout/screen-header';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { selectProductName } from '../../../config/page-config-slice';
import { useAppSelector } from '../../../lib/store-hooks';

export function ConsoleProblem({ problem, retry }: { problem: Problem; retry: () => void }) {
  return (
    <AuthLayout productName={useAppSelector(selectProductName)}>
      <ScreenHeader title="The console did not load">Nothing is lost: try again in a moment.</ScreenHeader>
      <FormAlert>{refusalMessage(problem)}</FormAlert>
      <Button type="button" onClick={retry}>
        Try again
      </Button>
    </AuthLayout>
  );
}
