import type { LimitedResource, Organization } from '../../../api/contract';
import { binding, usageText, type Binding } from '../../../api/limits';
import { RESOURCE_NAMES, formatNumber } from '../../../api/words';
import { ProgressBar } from '../../../components/ui/progress-bar';

const RESOURCES: LimitedResource[] = ['users', 'contentSections', 'qualityAssuranceDomains', 'webAnalyticsDomains'];

const BINDING_WORDS: Record<Binding, string> = {
  unlimited: 'No limit applies.',
  configured: 'The configured limit applies: the plan sets no hard limit.',
  'below-hard': 'The configured limit applies: it is below the hard limit.',
  hard: 'The hard limit applies: the plan allows no more.',
  both: 'The configured and hard limits are the same.',
  override: 'Override is on: the hard limit is ignored and the configured limit applies.',
};

const limitText = (limit: number | null) => (limit === null ? 'unlimited' : formatNumber(limit));

/** The four limits: usage as "N of M", a bar, and the configured and hard limits with the one that binds. */
export function LimitList({ organization }: { organization: Organization }) {
  const { limits, usage } = organization;
  return (
    <ul className="limits">
      {RESOURCES.map((resource) => {
        const bound = binding(organization, resource);
        const effective = limits.effective[resource];
        const text = usageText(organization, resource);
        return (
          <li className="limit" key={resource}>
            <div className="limit__head">
              <span className="limit__name">{RESOURCE_NAMES[resource]}</span>
              <span className="limit__usage">{text}</span>
            </div>
            <ProgressBar label={RESOURCE_NAMES[resource]} value={usage[resource]} max={effective} valueText={text} />
            <dl className="limit__figures">
              <div className={bound === 'configured' || bound === 'below-hard' || bound === 'both' || bound === 'override' ? 'limit__figure limit__figure--binds' : 'limit__figure'}>
                <dt>Configured</dt>
                <dd>{limitText(limits.configured[resource])}</dd>
              </div>
              <div className={bound === 'hard' || bound === 'both' ? 'limit__figure limit__figure--binds' : 'limit__figure'}>
                <dt>Hard limit</dt>
                <dd>{bound === 'override' ? `${limitText(limits.hard[resource])}, ignored` : limitText(limits.hard[resource])}</dd>
              </div>
              <div className="limit__figure">
                <dt>Override</dt>
                <dd>{limits.override ? 'on' : 'off'}</dd>
              </div>
            </dl>
            <p className="limit__explanation">
              {BINDING_WORDS[bound]}
              {resource === 'webAnalyticsDomains' && ' Web analytics domains are capped at 1,000.'}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
