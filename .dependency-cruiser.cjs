/** Architecture rules checked in CI (`npm run lint`). */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'libs/domain is pure TypeScript: no framework, no Node modules, no other lib or app.',
      severity: 'error',
      from: { path: '^libs/domain/', pathNot: ['\\.spec\\.ts$', '^libs/domain/src/testing/'] },
      to: {
        pathNot: ['^libs/domain/', '^node_modules/punycode/'],
      },
    },
    {
      name: 'domain-tests-are-pure-too',
      comment: 'Domain tests use only the domain, jest and fast-check.',
      severity: 'error',
      from: { path: ['^libs/domain/.*\\.spec\\.ts$', '^libs/domain/src/testing/'] },
      to: {
        pathNot: ['^libs/domain/', '^node_modules/(@jest/globals|fast-check)/'],
      },
    },
    {
      name: 'domain-no-node-core',
      severity: 'error',
      from: { path: '^libs/domain/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'web-rules-are-pure',
      comment: 'libs/web-rules is imported by the SPA file by file: pure TypeScript with no imports but its own files.',
      severity: 'error',
      from: { path: '^libs/web-rules/', pathNot: ['\\.spec\\.ts$'] },
      to: { pathNot: ['^libs/web-rules/'] },
    },
    {
      name: 'web-rules-no-node-core',
      severity: 'error',
      from: { path: '^libs/web-rules/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'event-store-is-the-port-and-its-adapters',
      comment:
        'libs/event-store holds the port, its adapters and their contract suite: no application code, no other lib but config.',
      severity: 'error',
      from: { path: '^libs/event-store/' },
      to: { path: '^libs/(application|domain|identity|read-models|web-rules)/' },
    },
    {
      name: 'entitlements-client-stands-alone',
      comment:
        "libs/entitlements-client is a package other services install: nothing of Chorus's own, only the OpenFeature SDK.",
      severity: 'error',
      from: { path: '^libs/entitlements-client/', pathNot: ['\\.spec\\.ts$'] },
      to: { path: '^(libs|apps)/', pathNot: '^libs/entitlements-client/' },
    },
    {
      name: 'libs-do-not-import-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'api-only-through-its-public-module',
      comment:
        'Outside apps/api (the command line, the tests) use its public module, apps/api/src/index.ts (#api), ' +
        'never its files by path: what the app offers is decided in one place.',
      severity: 'error',
      from: { pathNot: '^apps/api/' },
      to: { path: '^apps/api/', pathNot: '^apps/api/src/index\\.ts$' },
    },
    {
      name: 'api-plumbing-imports-no-feature',
      comment:
        "apps/api's shared plumbing (http, logging, metrics, web, config) serves every feature and knows none: a feature " +
        'registers what plumbing needs of it (ErrorAnswers, PAGE_VISITORS, PASSWORD_GATE, ORGANIZATION_ROLES).',
      severity: 'error',
      from: { path: '^apps/api/src/(http|logging|metrics|web|config)/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^apps/api/src/', pathNot: ['^apps/api/src/(http|logging|metrics|web|config)/'] },
    },
    {
      name: 'api-features-lean-one-way',
      comment:
        'Features inside apps/api depend one way: access knows no feature (auth, organizations answer its ports), ' +
        'sign-in knows not single sign-on (sso answers PASSWORD_GATE). The pairs once leaning on each other.',
      severity: 'error',
      from: { path: '^apps/api/src/access/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^apps/api/src/(auth|organizations|sso|entitlements|billing|audit)/' },
    },
    {
      name: 'api-sign-in-knows-not-sso',
      severity: 'error',
      from: { path: '^apps/api/src/auth/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^apps/api/src/sso/' },
    },
    {
      name: 'api-features-import-no-composition-root',
      comment:
        'The files at the root of apps/api/src compose the app (modules, createApp, the public module): no feature imports them.',
      severity: 'error',
      from: { path: '^apps/api/src/[^/]+/' },
      to: { path: '^apps/api/src/[^/]+\\.ts$' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
