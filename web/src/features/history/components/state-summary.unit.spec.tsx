import { describe, expect, it } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import { anOrganization } from '../../../testing/console-fixtures';
import { StateSummary } from './state-summary';

describe('the state at a point of the history', () => {
  it('says its limits as the overview does: "Not included" for domains whose feature was off, numbers with separators', () => {
    const { members, ...organization } = anOrganization({
      limits: {
        ...anOrganization().limits,
        effective: { users: 1000, contentSections: 2, qualityAssuranceDomains: null, webAnalyticsDomains: 1000 },
      },
    });
    render(
      <StateSummary
        state={{ ...organization, members, recordedAt: '2026-11-23T10:00:00Z' }}
        label="State after revision 6"
      />,
    );

    const facts = within(screen.getByRole('group', { name: 'State after revision 6' }));
    expect(facts.getByText('Users').nextElementSibling?.textContent).toBe('1 of 1,000');
    expect(facts.getByText('QA domains').nextElementSibling?.textContent).toBe('Not included');
    expect(facts.getByText('Web analytics domains').nextElementSibling?.textContent).toBe('Not included');
  });

  it('after a plan ended says that nothing can be added, not "0 of unlimited"', () => {
    const { members, ...organization } = anOrganization({
      governingPlan: null,
      limits: {
        ...anOrganization().limits,
        effective: { users: null, contentSections: null, qualityAssuranceDomains: null, webAnalyticsDomains: 1000 },
      },
    });
    render(
      <StateSummary
        state={{ ...organization, members, recordedAt: '2026-11-23T10:00:00Z' }}
        label="State after revision 9"
      />,
    );

    const facts = within(screen.getByRole('group', { name: 'State after revision 9' }));
    expect(facts.getByText('Sites').nextElementSibling?.textContent).toBe('0 in use: none can be added without a plan');
    expect(facts.getByText('Users').nextElementSibling?.textContent).toBe('1 in use: none can be added without a plan');
    expect(facts.getByText('Plan').nextElementSibling?.textContent).toBe('No plan');
  });
});
