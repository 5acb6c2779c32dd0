import type { Organization, Role } from '../../../api/contract';
import { planless, usageText } from '../../../api/limits';
import { canManage } from '../../../api/roles';
import { useCommand } from '../../../api/use-command';
import { Refusal } from '../../../components/console/refusal';
import { RemoveButton } from '../../../components/console/remove-button';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { FormAlert } from '../../../components/ui/form-alert';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { useRemoveSiteMutation } from '../api/sites-api';
import { AddSiteForm } from './add-site-form';

/** docs/console.md, Sites: the sites (the seed's content sections), by name and hostname (in Unicode form). */
export function Sites({ organization, role }: { organization: Organization; role: Role }) {
  const [removeSite] = useRemoveSiteMutation();
  const { problem, done, run } = useCommand();
  const usage = usageText(organization, 'contentSections');
  const manages = canManage(role);

  return (
    <>
      <PageHeader title="Sites">The sites {organization.name} collects feedback for.</PageHeader>
      <div className="stack">
        {manages && (
          <Section title="Add site">
            <AddSiteForm organization={organization} role={role} />
          </Section>
        )}
        <Section
          title="Your sites"
          description={planless(organization) ? `${usage}: none can be added without a plan` : `${usage} sites`}
          actions={
            !planless(organization) && (
              <ProgressBar
                label="Sites"
                value={organization.usage.contentSections}
                max={organization.limits.effective.contentSections}
                valueText={usage}
              />
            )
          }
        >
          <FormAlert>{problem && <Refusal problem={problem} organization={organization} role={role} />}</FormAlert>
          <p className="form__status" role="status">
            {done}
          </p>
          {organization.sites.length === 0 ? (
            <p className="empty">No sites yet.</p>
          ) : (
            <ul className="rows" aria-label="Sites">
              {organization.sites.map((site) => (
                <li className="row" key={site.siteId}>
                  <div className="row__main">
                    <span className="row__title">{site.name}</span>
                    <span className="row__detail">{site.hostname}</span>
                  </div>
                  {manages && (
                    <div className="row__actions">
                      <RemoveButton
                        item={site.name}
                        consequence={`${site.name} (${site.hostname}) stops collecting feedback for ${organization.name}.`}
                        remove={() =>
                          run(
                            () => removeSite({ organizationId: organization.id, siteId: site.siteId }).unwrap(),
                            `${site.name} is removed.`,
                          )
                        }
                      />
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
    </>
  );
}
