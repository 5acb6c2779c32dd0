// Seed section 4, add-ons: what one unit of each add-on adds. Quantities multiply the increments.
import type { LimitedResource } from '../errors.js';
import type { AddOn, ChorusFeature, ServiceLevel } from './catalogue.js';

export type AddOnEffect = {
  increments: Partial<Record<LimitedResource, number>>;
  features: readonly ChorusFeature[];
};

export const ADD_ON_EFFECTS: Readonly<Record<AddOn, AddOnEffect>> = {
  additionalContentSection: { increments: { contentSections: 1 }, features: [] },
  additionalUser: { increments: { users: 1 }, features: [] },
  qualityAssurance: { increments: { qualityAssuranceDomains: 1 }, features: ['qualityAssurance', 'multiUser'] },
  webAnalytics: { increments: { webAnalyticsDomains: 1 }, features: ['webAnalytics', 'multiUser'] },
  feedback: {
    increments: {},
    features: [
      'feedback',
      'feedbackAssigning',
      'feedbackLabeling',
      'feedbackNotes',
      'buttonToolGeneral',
      'buttonToolSentiment',
      'buttonToolAfterReactions',
      'buttonToolHistory',
    ],
  },
};

/** Seed section 4: "Service levels assisted and turnkey enable chatSupport." */
export const SERVICE_LEVEL_FEATURES: Readonly<Record<ServiceLevel, readonly ChorusFeature[]>> = {
  standard: [],
  assisted: ['chatSupport'],
  turnkey: ['chatSupport'],
};
