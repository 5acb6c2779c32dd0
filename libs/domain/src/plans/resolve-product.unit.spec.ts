import { describe, expect, it } from '@jest/globals';
import type { PlanCatalogue } from './catalogue.js';
import { createPlanCatalogue } from './plan-catalogue.js';
import { resolveProduct } from './resolve-product.js';

const catalogue = createPlanCatalogue({ paymentProviderIds: ['prod-ess', 'prod-pro', '', 'prod-section'] });

// As PLAN_LINKED_PRODUCT_IDS gives them: ids are trimmed and empty ones ignored.
const linkedCatalogue: PlanCatalogue = createPlanCatalogue({
  paymentProviderIds: ['prod-ess', 'prod-pro', '', 'prod-section'],
  linkedProductIds: { 'chorus:teams': ['', 'legacy-teams', ' teams-yearly '], feedback: ['feedback-pack'] },
});

describe('resolveProduct', () => {
  it('resolves a plan by its payment-provider id', () => {
    expect(resolveProduct(catalogue, 'prod-ess')).toEqual({ kind: 'plan', line: 'classic', plan: 'essential' });
    expect(resolveProduct(catalogue, 'prod-pro')).toEqual({ kind: 'plan', line: 'classic', plan: 'professional' });
  });

  it('resolves the additional content section add-on by its payment-provider id', () => {
    expect(resolveProduct(catalogue, 'prod-section')).toEqual({ kind: 'addOn', addOn: 'additionalContentSection' });
  });

  it('resolves plans and add-ons by their linked product ids', () => {
    const linked = linkedCatalogue;
    expect(linked.plans.find((spec) => spec.line === 'chorus' && spec.name === 'teams')?.linkedProductIds).toEqual([
      'legacy-teams',
      'teams-yearly',
    ]);
    expect(resolveProduct(linked, 'teams-yearly')).toEqual({ kind: 'plan', line: 'chorus', plan: 'teams' });
    expect(resolveProduct(linked, 'legacy-teams')).toEqual({ kind: 'plan', line: 'chorus', plan: 'teams' });
    expect(resolveProduct(linked, 'feedback-pack')).toEqual({ kind: 'addOn', addOn: 'feedback' });
  });

  it('resolves nothing for an unknown id', () => {
    expect(resolveProduct(catalogue, 'prod-unknown')).toBeUndefined();
    expect(resolveProduct(catalogue, 'PROD-ESS')).toBeUndefined();
  });

  it('resolves nothing for the empty id, even though missing ids and linked ids may be empty', () => {
    expect(resolveProduct(createPlanCatalogue(), '')).toBeUndefined();
    expect(resolveProduct(linkedCatalogue, '')).toBeUndefined();
  });
});
