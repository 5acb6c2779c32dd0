import { describe, expect, it } from '@jest/globals';
import type { OrganizationEvent } from '../organization/events.js';
import { foldOrganization } from '../organization/evolve.js';
import type { ExistingOrganization } from '../organization/state.js';
import { CHORUS_FEATURES, type ChorusFeature } from '../plans/catalogue.js';
import { testCatalogue } from '../testing/given-when-then.js';
import {
  addOnCancelled,
  addOnPurchased,
  chorusDisabled,
  chorusEnabled,
  chorusPlanAssigned,
  classicPlanAssigned,
  onChorusPlan,
  onClassicPlan,
  organizationCreated,
} from '../testing/organization-events.js';
import { effectiveChorusFeatures } from './chorus-features.js';

const featuresOn = (events: OrganizationEvent[]): ChorusFeature[] => {
  const features = effectiveChorusFeatures(foldOrganization(events) as ExistingOrganization, testCatalogue);
  return CHORUS_FEATURES.filter((feature) => features[feature]);
};

const FEEDBACK_FEATURES: ChorusFeature[] = [
  'feedback',
  'feedbackAssigning',
  'feedbackLabeling',
  'feedbackNotes',
  'buttonToolGeneral',
  'buttonToolSentiment',
  'buttonToolAfterReactions',
  'buttonToolHistory',
];

describe('the Chorus features in effect', () => {
  it('are the Chorus plan’s own while Chorus is enabled', () => {
    expect(featuresOn(onChorusPlan('light'))).toEqual(['emailNotifications', 'buttonToolGeneral']);
    expect(featuresOn(onChorusPlan('teams'))).toContain('matomoIntegration');
    expect(featuresOn(onChorusPlan('enterprise'))).toEqual(
      CHORUS_FEATURES.filter((feature) => feature !== 'matomoIntegration'),
    );
  });

  it('are all off while Chorus is disabled, whatever the plan, add-ons or service level', () => {
    expect(
      featuresOn([organizationCreated(), chorusPlanAssigned('enterprise', 'turnkey'), addOnPurchased('feedback')]),
    ).toEqual([]);
    expect(featuresOn([...onChorusPlan('enterprise'), chorusDisabled()])).toEqual([]);
    expect(featuresOn([...onClassicPlan('enterprise'), addOnPurchased('qualityAssurance')])).toEqual([]);
  });

  it('come from add-ons and the service level alone when Chorus is enabled without a Chorus plan', () => {
    expect(featuresOn([organizationCreated(), classicPlanAssigned('essential'), chorusEnabled()])).toEqual([]);
    expect(
      featuresOn([
        organizationCreated(),
        classicPlanAssigned('essential', 'assisted'),
        chorusEnabled(),
        addOnPurchased('webAnalytics'),
      ]),
    ).toEqual(['multiUser', 'webAnalytics', 'chatSupport']);
  });

  describe('add-ons', () => {
    it('qualityAssurance turns on qualityAssurance and multiUser', () => {
      expect(featuresOn([...onChorusPlan('light'), addOnPurchased('qualityAssurance')])).toEqual(
        expect.arrayContaining(['qualityAssurance', 'multiUser']),
      );
      expect(featuresOn(onChorusPlan('light'))).not.toEqual(expect.arrayContaining(['qualityAssurance']));
    });

    it('webAnalytics turns on webAnalytics and multiUser', () => {
      const before = featuresOn(onChorusPlan('light'));
      const after = featuresOn([...onChorusPlan('light'), addOnPurchased('webAnalytics')]);
      expect(after.filter((feature) => !before.includes(feature))).toEqual(['multiUser', 'webAnalytics']);
    });

    it('feedback turns on every feedback feature and button tool', () => {
      const after = featuresOn([...onChorusPlan('light'), addOnPurchased('feedback')]);
      expect(after).toEqual(expect.arrayContaining(FEEDBACK_FEATURES));
      expect(after.filter((feature) => !FEEDBACK_FEATURES.includes(feature))).toEqual(['emailNotifications']);
    });

    it.each(['additionalContentSection', 'additionalUser'] as const)('%s turns on no feature', (addOn) => {
      expect(featuresOn([...onChorusPlan('light'), addOnPurchased(addOn, 3)])).toEqual(
        featuresOn(onChorusPlan('light')),
      );
    });

    it('a fully cancelled add-on no longer turns anything on; a partly cancelled one still does', () => {
      expect(
        featuresOn([...onChorusPlan('light'), addOnPurchased('feedback', 2), addOnCancelled('feedback', 2)]),
      ).toEqual(featuresOn(onChorusPlan('light')));
      expect(
        featuresOn([...onChorusPlan('light'), addOnPurchased('feedback', 2), addOnCancelled('feedback', 1)]),
      ).toContain('feedbackLabeling');
    });
  });

  describe('service levels', () => {
    it.each(['assisted', 'turnkey'] as const)('%s turns on chatSupport', (serviceLevel) => {
      expect(featuresOn([organizationCreated(), chorusPlanAssigned('light', serviceLevel), chorusEnabled()])).toContain(
        'chatSupport',
      );
    });

    it('standard does not', () => {
      expect(
        featuresOn([organizationCreated(), chorusPlanAssigned('teams', 'standard'), chorusEnabled()]),
      ).not.toContain('chatSupport');
    });

    it('a service level given with the Classic plan counts organization-wide', () => {
      expect(
        featuresOn([
          organizationCreated(),
          classicPlanAssigned('essential', 'turnkey'),
          chorusPlanAssigned('solo'),
          chorusEnabled(),
        ]),
      ).toContain('chatSupport');
    });

    it('the latest plan assignment that names a service level sets it', () => {
      const history = [organizationCreated(), chorusPlanAssigned('solo', 'assisted'), chorusEnabled()];
      expect(featuresOn([...history, chorusPlanAssigned('teams')])).toContain('chatSupport');
      expect(featuresOn([...history, chorusPlanAssigned('teams', 'standard')])).not.toContain('chatSupport');
    });
  });
});
