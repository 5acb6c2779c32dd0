import type { Organization, Role } from '../../../api/contract';
import { PageHeader } from '../../../components/layout/page-header';
import { DomainList } from './domain-list';

export function Domains({ organization, role }: { organization: Organization; role: Role }) {
  return (
    <>
      <PageHeader title="Domains">Where {organization.name} runs quality assurance and web analytics.</PageHeader>
      <div className="stack">
        <DomainList organization={organization} kind="qualityAssurance" role={role} />
        <DomainList organization={organization} kind="webAnalytics" role={role} />
      </div>
    </>
  );
}
