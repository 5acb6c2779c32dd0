// One organization's life, ten events that the domain would accept in this order: the log the projections
// and scale-out benches generate (event type and data for organization `i`).
export const organizationStory = [
  (i) => ['OrganizationCreated', { id: `org-${i}`, name: `Organization ${i}` }],
  (i) => ['PlanAssigned', { line: 'classic', plan: i % 2 === 0 ? 'professional' : 'enterprise' }],
  (i) => ['MemberAdded', { userId: `owner-${i}`, email: `owner${i}@example.test`, role: 'owner', chorusUser: false }],
  (i) => ['SiteAdded', { siteId: `site-${i}`, name: 'Main site', hostname: `www.org${i}.example` }],
  () => ['PlanAssigned', { line: 'chorus', plan: 'teams', serviceLevel: 'assisted' }],
  (i) => ['ChorusEnabled', { parallelUse: i % 3 === 0 }],
  (i) => [
    'MemberAdded',
    { userId: `member-${i}`, email: `member${i}@example.test`, role: 'member', chorusUser: i % 2 === 0 },
  ],
  () => ['AddOnPurchased', { addOn: 'qualityAssurance', quantity: 1 }],
  (i) => ['QualityAssuranceDomainAdded', { domain: `qa.org${i}.example` }],
  (i) => ['LimitsConfigured', { users: 3 + (i % 5) }],
];
