import { describe, expect, it } from '@jest/globals';
import type { PlanCatalogue } from './catalogue.js';
import { createPlanCatalogue } from './plan-catalogue.js';
import { resolveProduct } from './resolve-product.js';

const catalogue = createPlanCatalogue({ paymentProviderIds: ['prod-ess', 'prod-pro', '', 'prod-section'] });

const withLinkedProducts = (base: PlanCatalogue): PlanCatalogue => ({
  plans: base.plans.map((spec) =>
    spec.line === 'chorus' && spec.name === 'teams' ? { ...spec, linkedProductIds: ['', 'legacy-teams', 'teams-yearly'] } : spec,
  ),
  addOns: base.addOns.map((spec) => (spec.name === 'feedback' ? { ...spec, linkedProductIds: ['feedback-pack'] } : spec)),
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
    const linked = withLinkedProducts(catalogue);
    expect(resolveProduct(linked, 'teams-yearly')).toEqual({ kind: 'plan', line: 'chorus', plan: 'teams' });
    expect(resolveProduct(linked, 'legacy-teams')).toEqual({ kind: 'plan', line: 'chorus', plan: 'teams' });
    expect(resolveProduct(linked, 'feedback-pack')).toEqual({ kind: 'addOn', addOn: 'feedback' });
  });

  it('resolves nothing for an unknown id', () => {
    expect(resolveProduct(catalogue, 'prod-unknown')).toBeUndefined();
    expect(resolveProduct(catalogue, 'PROD-ESS')).toBeUndefined();
  });

  it('resolves nothing for the empty id, even though missing ids and linked ids may be empty', () => {
    expect(resolveProduct(withLinkedProducts(createPlanCatalogue()), '')).toBeUndefined();
    expect(resolveProduct(withLinkedProducts(catalogue), '')).toBeUndefined();
  });
});
