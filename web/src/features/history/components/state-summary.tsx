// The organization at a point, in words: plan, limits against usage (as the overview says them), members, sites and
// domains.
import { allowedText } from '../../../api/limits';
import { RESOURCE_NAMES, planName } from '../../../api/words';
import type { LimitedResource } from '../../../api/contract';
import { ROLE_NAMES } from '../../../api/roles';
import type { StateAt } from '../api/history-contract';

const RESOURCES: readonly LimitedResource[] = [
  'users',
  'contentSections',
  'qualityAssuranceDomains',
  'webAnalyticsDomains',
];

const count = (n: number): string => n.toLocaleString('en-US');

function planWords(state: StateAt): string {
  if (state.governingPlan === null) return 'No plan';
  const line = state.governingPlan.line === 'chorus' ? 'Chorus' : 'Classic';
  return `${line} ${planName(state.governingPlan.plan)}${state.chorus ? ', Chorus on' : ''}`;
}

export function StateSummary({ state, label }: { state: StateAt; label: string }) {
  const domains = [
    ...state.qualityAssurance.domains.map((domain) => `${domain} (QA)`),
    ...state.webAnalytics.domains.map((domain) => `${domain} (web analytics)`),
  ];
  return (
    <div className="history-state" aria-label={label} role="group">
      <dl className="history-state__facts">
        <div>
          <dt>Plan</dt>
          <dd>{planWords(state)}</dd>
        </div>
        {RESOURCES.map((resource) => (
          <div key={resource}>
            <dt>{RESOURCE_NAMES[resource]}</dt>
            <dd>{allowedText(state, resource)}</dd>
          </div>
        ))}
      </dl>
      <h4 className="history-state__heading">Members ({count(state.memberCount)})</h4>
      {state.members.length < state.memberCount && (
        // Said before the list, so that a reader knows it stops short before reaching its end.
        <p className="muted">
          The first {count(state.members.length)} of {count(state.memberCount)} members are listed.
        </p>
      )}
      <ul className="plain-list history-state__list" aria-label="Members then">
        {state.members.map((member) => (
          <li key={member.userId}>
            {member.email} <span className="muted">· {ROLE_NAMES[member.role]}</span>
          </li>
        ))}
      </ul>
      <h4 className="history-state__heading">Sites ({state.sites.length})</h4>
      {state.sites.length === 0 ? (
        <p className="muted">None</p>
      ) : (
        <ul className="plain-list history-state__list" aria-label="Sites then">
          {state.sites.map((site) => (
            <li key={site.siteId}>
              {site.name} <span className="muted">· {site.hostname}</span>
            </li>
          ))}
        </ul>
      )}
      {domains.length > 0 && (
        <>
          <h4 className="history-state__heading">Domains ({domains.length})</h4>
          <ul className="plain-list history-state__list" aria-label="Domains then">
            {domains.map((domain) => (
              <li key={domain}>{domain}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
