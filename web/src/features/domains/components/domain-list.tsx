import { useState, type FormEvent } from 'react';
import type { LimitedResource, Organization, Role } from '../../../api/contract';
import { included, usageText } from '../../../api/limits';
import { canManage } from '../../../api/roles';
import { fieldRefusal, useCommand } from '../../../api/use-command';
import { AddForm } from '../../../components/console/add-form';
import { Refusal } from '../../../components/console/refusal';
import { WayForward } from '../../../components/console/way-forward';
import { RemoveButton } from '../../../components/console/remove-button';
import { Section } from '../../../components/layout/section';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { Notice } from '../../../components/ui/notice';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { TextField } from '../../../components/ui/text-field';
import { useAddDomainMutation, useRemoveDomainMutation, type DomainKind } from '../api/domains-api';

type KindWords = {
  title: string;
  noun: string;
  field: string;
  resource: LimitedResource;
  feature: string;
  addOn: string;
};

const KINDS: Record<DomainKind, KindWords> = {
  qualityAssurance: {
    title: 'QA domains',
    noun: 'QA domain',
    field: 'QA domain',
    resource: 'qualityAssuranceDomains',
    feature: 'Quality assurance',
    addOn: 'Quality assurance',
  },
  webAnalytics: {
    title: 'Web analytics domains',
    noun: 'web analytics domain',
    field: 'Web analytics domain',
    resource: 'webAnalyticsDomains',
    feature: 'Web analytics',
    addOn: 'Web analytics',
  },
};

function featureOff(organization: Organization, kind: DomainKind): string {
  const { feature, addOn } = KINDS[kind];
  if (!organization.chorus)
    return `${feature} is a Chorus feature, and Chorus is off for ${organization.name}. With Chorus on, the ${addOn} add-on turns it on.`;
  return `${feature} is off for ${organization.name}: the ${addOn} add-on turns it on.`;
}

type DomainListProps = { organization: Organization; kind: DomainKind; role: Role };

export function DomainList({ organization, kind, role }: DomainListProps) {
  const manages = canManage(role);
  const [addDomain, { isLoading }] = useAddDomainMutation();
  const [removeDomain] = useRemoveDomainMutation();
  const [domain, setDomain] = useState('');
  const { problem, done, run, refuse } = useCommand();
  const { title, noun, field, resource } = KINDS[kind];
  const domains = organization[kind].domains;
  const enabled = organization.chorusFeatures[kind];
  const usage = usageText(organization, resource);
  const messageId = `${kind}-message`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (domain.trim() === '') return refuse(fieldRefusal('domain'));
    if (
      await run(
        () => addDomain({ organizationId: organization.id, kind, domain: domain.trim() }).unwrap(),
        `${domain.trim()} is added.`,
      )
    )
      setDomain('');
  }

  return (
    <Section
      title={title}
      description={included(organization, resource) ? `${usage} ${noun}s` : usage}
      actions={
        included(organization, resource) ? (
          <ProgressBar
            label={title}
            value={organization.usage[resource]}
            max={organization.limits.effective[resource]}
            valueText={usage}
          />
        ) : undefined
      }
    >
      {!enabled && (
        <Notice tone="info">
          <p>{featureOff(organization, kind)}</p>
          <WayForward goal={organization.chorus ? 'addOn' : 'chorus'} role={role} organization={organization} />
        </Notice>
      )}
      {manages && enabled && (
        <AddForm
          label={`Add ${noun}`}
          organization={organization}
          role={role}
          resource={resource}
          problem={problem}
          messageId={messageId}
          busy={isLoading}
          done={done}
          onSubmit={(event) => void submit(event)}
        >
          <div className="form__row form__row--action">
            <TextField
              label={field}
              name="domain"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              inputMode="url"
              placeholder="staging.example.com"
              value={domain}
              onChange={(event) => setDomain(event.target.value)}
              aria-invalid={
                (problem !== null && (problem.code === 'INVALID_HOSTNAME' || problem.code === 'DUPLICATE')) || undefined
              }
              aria-describedby={problem ? messageId : undefined}
            />
            <Button type="submit" busy={isLoading}>
              Add {noun}
            </Button>
          </div>
        </AddForm>
      )}
      {(!manages || !enabled) && (
        <>
          <FormAlert>{problem && <Refusal problem={problem} organization={organization} role={role} />}</FormAlert>
          <p className="form__status" role="status">
            {done}
          </p>
        </>
      )}
      {domains.length === 0 ? (
        <p className="empty">No {noun}s yet.</p>
      ) : (
        <ul className="rows" aria-label={title}>
          {domains.map((value) => (
            <li className="row" key={value}>
              <div className="row__main">
                <span className="row__title">{value}</span>
              </div>
              {manages && (
                <div className="row__actions">
                  <RemoveButton
                    item={value}
                    consequence={`${value} leaves the ${noun}s of ${organization.name}.`}
                    remove={() =>
                      run(
                        () => removeDomain({ organizationId: organization.id, kind, domain: value }).unwrap(),
                        `${value} is removed.`,
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
  );
}
