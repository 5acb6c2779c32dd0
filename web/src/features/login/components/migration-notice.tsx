import { Notice } from '../../../components/ui/notice';
import { migrationNotice } from '../login-messages';

export function MigrationNotice({ productName }: { productName: string }) {
  const [migrated, sameCredentials, pleaseLogIn] = migrationNotice(productName);
  return (
    <Notice tone="info">
      <p className="notice__title">{migrated}</p>
      <p>
        <span>{sameCredentials}</span> <span>{pleaseLogIn}</span>
      </p>
    </Notice>
  );
}
