import '../directory.css';
import type { Organization } from '../../../api/contract';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { DirectoryTokens } from './directory-tokens';
import { DomainJoins } from './domain-joins';
import { GroupRolesForm } from './group-roles';
import { RequestLog } from './request-log';

/** Owners and admins (the route says so to everyone else); the mapping and the joins are owners’. */
export function Directory({ organization, isOwner }: { organization: Organization; isOwner: boolean }) {
  const baseUrl = `${window.location.origin}/scim/v2`;
  if (!organization.sso.available) {
    return (
      <PageHeader title="Directory">
        Directory provisioning comes with the enterprise plans: your identity provider then adds and removes{' '}
        {organization.name}’s people for you.
      </PageHeader>
    );
  }
  return (
    <>
      <PageHeader title="Directory">
        Your identity provider (Okta, Entra ID or any SCIM 2.0 client) adds {organization.name}’s people, changes their
        roles and removes them the minute they leave.
      </PageHeader>
      <div className="stack directory">
        <Section
          title="Connect your identity provider"
          description="Give it the base URL and a token. Only people of your verified domains can be added."
        >
          <div className="directory-connect" role="group" aria-labelledby="directory-base-url">
            <span className="field__label" id="directory-base-url">
              SCIM base URL
            </span>
            <code className="address">{baseUrl}</code>
          </div>
          <DirectoryTokens organization={organization} />
        </Section>
        <Section
          title="Roles from groups"
          description="Once a group is mapped, each person your identity provider adds gets the strongest role of their groups, and Member when none."
        >
          <GroupRolesForm organization={organization} isOwner={isOwner} />
        </Section>
        <Section
          title="Recent requests"
          description="The last 100 requests of your identity provider, newest first, and how each ended."
        >
          <RequestLog organization={organization} />
        </Section>
        <Section
          title="Joining by domain"
          description="Without a directory, people of a verified domain can join on their own the first time they sign in."
        >
          <DomainJoins organization={organization} isOwner={isOwner} />
        </Section>
      </div>
    </>
  );
}
