import type { ReactNode } from 'react';
import type { Organization, Role } from '../../../api/contract';
import { exceededBy, usageText } from '../../../api/limits';
import { canManage } from '../../../api/roles';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { LimitNotice } from '../../../components/console/limit-notice';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { AddMemberForm } from './add-member-form';
import { MemberList } from './member-list';

/** twoStep is composed by the route, for those who manage members. */
type MembersProps = { organization: Organization; role: Role; currentUserId: string; twoStep?: ReactNode };

export function Members({ organization, role, currentUserId, twoStep }: MembersProps) {
  const usage = usageText(organization, 'users');
  return (
    <>
      <PageHeader title="Members">Who can sign in to {organization.name}, and what they may do.</PageHeader>
      <div className="stack">
        {/* Those who cannot add see why nobody can, and whom to ask; the add form says it to those who can. */}
        {!canManage(role) && exceededBy(organization, 'users') > 0 && (
          <LimitNotice organization={organization} resource="users" role={role} />
        )}
        {canManage(role) && (
          <Section
            title="Add member"
            description="Everyone you add is told by e-mail; someone new is invited to choose a password."
          >
            <AddMemberForm organization={organization} role={role} />
          </Section>
        )}
        <Section
          title="People"
          description={`${usage} users`}
          actions={
            <ProgressBar
              label="Users"
              value={organization.usage.users}
              max={organization.limits.effective.users}
              valueText={usage}
            />
          }
        >
          <MemberList organization={organization} role={role} currentUserId={currentUserId} />
        </Section>
        {twoStep}
      </div>
    </>
  );
}
