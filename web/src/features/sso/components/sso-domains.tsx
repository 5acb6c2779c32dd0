import { useState } from 'react';
import type { Organization, SsoDomainCheck, SsoDomainState } from '../../../api/contract';
import { refusalMessage } from '../../../api/refusals';
import { useCommand } from '../../../api/use-command';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { formatDateTime } from '../../../lib/date-time';
import { useCheckSsoDomainMutation } from '../api/sso-api';

const STATUS_WORDS: Record<SsoDomainState['status'], string> = {
  pending: 'Waiting for DNS record',
  verified: 'Verified',
  unverified: 'Not verified',
};

function sinceWords(state: SsoDomainState): string {
  if (state.since === null) return 'Listed before domains needed a DNS record: save the settings again to get one.';
  const since = formatDateTime(state.since);
  if (state.status === 'pending') return `Waiting since ${since}. People of this domain cannot use single sign-on yet.`;
  if (state.status === 'unverified')
    return `Not verified since ${since}: the record was gone too long. Publish it again, then check.`;
  if (state.recordMissingSince !== null) {
    return `Verified since ${since}, but the record was not found on ${formatDateTime(state.recordMissingSince)}: publish it again.`;
  }
  return `Verified since ${since}. Keep the record: Chorus checks it regularly.`;
}

const CHECK_WORDS: Record<SsoDomainCheck['lookup'], (check: SsoDomainCheck) => string> = {
  found: (check) =>
    `The record of ${check.domain} was found${check.status === 'verified' ? ': the domain is verified.' : '.'}`,
  absent: (check) =>
    `The record of ${check.domain} was not found yet. DNS changes can take a while to be seen; try again later.`,
  unknown: (check) => `DNS did not answer for ${check.domain}. Nothing changed; try again in a moment.`,
};

/** The TXT record's name, type and value are each selectable on their own. */
export function SsoDomains({ organization, states }: { organization: Organization; states: SsoDomainState[] }) {
  const [checkDomain] = useCheckSsoDomainMutation();
  const [checking, setChecking] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const { problem, run } = useCommand();

  async function check(domain: string) {
    setChecking(domain);
    setSaid(null);
    await run(async () => {
      const answer = await checkDomain({ organizationId: organization.id, domain }).unwrap();
      setSaid(CHECK_WORDS[answer.lookup](answer));
    });
    setChecking(null);
  }

  return (
    <>
      <FormAlert>{problem && refusalMessage(problem, organization)}</FormAlert>
      <ul className="rows" aria-label="Domain verification">
        {states.map((state) => (
          <li className="row sso-domain" key={state.domain}>
            <div className="row__main">
              <span className="row__title">
                {state.domain}
                <span className={`tag tag--${state.status}`}>{STATUS_WORDS[state.status]}</span>
              </span>
              <span className="row__detail">{sinceWords(state)}</span>
              {state.record !== null && (
                <div role="group" aria-label={`DNS record for ${state.domain}`}>
                  <dl className="facts sso-record">
                    <div className="fact fact--wide">
                      <dt>Name</dt>
                      <dd>
                        <code className="address">{state.record.name}</code>
                      </dd>
                    </div>
                    <div className="fact">
                      <dt>Type</dt>
                      <dd>
                        <code className="address">{state.record.type}</code>
                      </dd>
                    </div>
                    <div className="fact fact--wide">
                      <dt>Value</dt>
                      <dd>
                        <code className="address">{state.record.value}</code>
                      </dd>
                    </div>
                  </dl>
                </div>
              )}
            </div>
            {state.record !== null && (
              <div className="row__actions">
                <Button
                  type="button"
                  variant="secondary"
                  className="button--small"
                  busy={checking === state.domain}
                  onClick={() => void check(state.domain)}
                >
                  Check now<span className="visually-hidden"> {state.domain}</span>
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <p className="form__status" role="status">
        {said}
      </p>
    </>
  );
}
