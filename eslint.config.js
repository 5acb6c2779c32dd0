import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const webFeatures = ['login', 'forgot', 'reset', 'google', 'console-shell', 'overview', 'members', 'sites', 'domains', 'account', 'invitations', 'history'];

// The SPA reaches outside web/ only for the pure libs it shares with the server, through their alias
// (web/tsconfig.json's paths): never by relative path, never into apps or other libs.
const sharedLibsOnly = {
  regex: '^((\\.\\./)+(apps|libs|test)/|#|@libs/(?!(domain|web-rules)/))',
  message: 'The SPA imports only @libs/domain/... and @libs/web-rules/... (pure files shared with the server).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'web/dist/**', '.ci/artifacts/**', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
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
    rules: { ...reactHooks.configs.recommended.rules, 'no-restricted-imports': ['error', { patterns: [sharedLibsOnly] }] },
  },
  {
    // The pages run under the product's CSP (no 'unsafe-eval'); waitForFunction eval()s its predicate on every poll.
    files: ['test/browser/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', {
        property: 'waitForFunction',
        message: "Its polls eval() in the page, which the page's CSP refuses after the first: poll locators from the test (support/wait-for.ts).",
      }],
    },
  },
  // Features never reach into each other (bulletproof-react's import zones); routes compose them.
  ...webFeatures.map((feature) => ({
    files: [`web/src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [sharedLibsOnly, {
          regex: `(^|/)(${webFeatures.filter((other) => other !== feature).join('|')})(/|$)`,
          message: 'A feature must not import another feature; compose them in web/src/app.',
        }],
      }],
    },
  })),
);
