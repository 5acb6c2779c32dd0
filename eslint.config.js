import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync, readFileSync } from 'node:fs';

// Every folder of web/src/features is a feature: a new one is fenced the day it is created.
const webFeatures = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// The SPA reaches outside web/ only for the pure libs it shares with the server, through their alias
// (web/tsconfig.json's paths): never by relative path, never into apps or other libs.
const sharedLibsOnly = {
  regex: '^((\\.\\./)+(apps|libs|test)/|#|@libs/(?!(domain|web-rules)/))',
  message: 'The SPA imports only @libs/domain/... and @libs/web-rules/... (pure files shared with the server).',
};

// app/ composes the store and the routes from everything below it; nothing below reaches back up.
const notUpward = {
  regex: '^(\\.\\./)+app(/|$)',
  message:
    'Only web/src/app may import web/src/app: typed hooks are in web/src/lib/store-hooks.ts; app/ wires the rest.',
};
const otherFeatures = (feature) => ({
  regex: `(^|/)(${webFeatures.filter((other) => other !== feature).join('|')})(/|$)`,
  message: 'A feature must not import another feature; compose them in web/src/app.',
});
const webImports = (...patterns) => ({
  'no-restricted-imports': ['error', { patterns: [sharedLibsOnly, ...patterns] }],
});
// The refusal codes a feature raises (the domain's list, less the common ones plumbing answers): plumbing names none.
const codesIn = (path, pattern) =>
  [...readFileSync(new URL(path, import.meta.url), 'utf8').matchAll(pattern)].map((match) => match[1]);
const domainCodes = codesIn('./libs/domain/src/errors.ts', /^ {2}'([A-Z_]+)',$/gm);
const commonCodes = codesIn('./apps/api/src/http/common-refusal-answers.ts', /^ {2}([A-Z_]+): \{/gm);
const featureCodes = domainCodes.filter((code) => !commonCodes.includes(code)).join('|');
const featureCodeNamed = {
  message: "Plumbing names no feature's refusal code: the feature registers its answer beside it (ErrorAnswers).",
};

// A spec may render the whole app (AppRoutes) to test a feature from the user's side.
const specs = ['**/*.spec.ts', '**/*.spec.tsx'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'libs/*/dist/**',
      'node_modules/**',
      'coverage/**',
      'data/**',
      'web/dist/**',
      '.ci/artifacts/**',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
      // The shape a reader can hold: a line fits a screen, a file earns more than 300 lines in its first line.
      'max-len': [
        'error',
        { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreStrings: true, ignoreTemplateLiterals: true },
      ],
      // A backstop, not a budget: split a file where it holds two things, long before this bites.
      'max-lines': ['error', { max: 500, skipBlankLines: true, skipComments: true }],
    },
  },
  // Tests and benchmarks read as lists of cases; the file bound is for the code they exercise.
  { files: ['**/*.spec.{ts,tsx}', '**/testing/**', 'test/**', 'bench/**'], rules: { 'max-lines': 'off' } },
  {
    files: ['apps/api/src/{http,logging,metrics,web,config}/**/*.ts'],
    ignores: specs,
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=/^(${featureCodes})$/]`, ...featureCodeNamed },
        { selector: `Property > Identifier.key[name=/^(${featureCodes})$/]`, ...featureCodeNamed },
      ],
    },
  },
  {
    // Nest's dependency injection reads constructor parameter types at run time: type-only imports break it.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['libs/domain/**'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, ...webImports() },
  },
  { files: ['web/src/{api,components,config,lib}/**'], ignores: specs, rules: webImports(notUpward) },
  {
    // The pages run under the product's CSP (no 'unsafe-eval'); waitForFunction eval()s its predicate on every poll.
    files: ['test/browser/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'waitForFunction',
          message:
            "Its polls eval() in the page, which the page's CSP refuses after the first: poll locators from the test (support/wait-for.ts).",
        },
      ],
    },
  },
  // Features never reach into each other (bulletproof-react's import zones); routes compose them.
  ...webFeatures.flatMap((feature) => [
    { files: [`web/src/features/${feature}/**`], rules: webImports(otherFeatures(feature)) },
    { files: [`web/src/features/${feature}/**`], ignores: specs, rules: webImports(otherFeatures(feature), notUpward) },
  ]),
);
