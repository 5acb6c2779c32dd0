// One jest run for every tier. Tiers are named by file: *.unit.spec.ts, *.int.spec.ts, *.e2e.spec.ts.
// ESM throughout (NestJS 12 is ESM-only): run with `node --experimental-vm-modules`.
const tsJestServer = ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json' }];
const tsJestWeb = ['ts-jest', { useESM: true, tsconfig: '<rootDir>/web/tsconfig.json' }];

/** @type {import('jest').Config} */
export default {
  // Tests that start the CLI or a server spend 1-2 s of CPU each; jest's 5 s default timed them out
  // when the machine was loaded. A hung test still fails, 20 s later. (A per-project value is ignored.)
  testTimeout: 20_000,
  // Run test files in a worker that is replaced once it holds over 1 GB after a file: in one process the
  // ESM module registries of 240 files pile up to the 4 GB heap limit, and GC then slows every test to a crawl.
  workerIdleMemoryLimit: '1GB',
  projects: [
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test', '<rootDir>/scripts'],
      testMatch: ['**/*.{unit,int,e2e}.spec.ts'],
      extensionsToTreatAsEsm: ['.ts'],
      transform: { '^.+\\.ts$': tsJestServer },
      moduleNameMapper: {
        '^#api$': '<rootDir>/apps/api/src/index.ts',
        '^#([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
        '^(\\.{1,2}/.*)\\.js$': '$1',
      },
    },
    {
      displayName: 'web',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/web/src'],
      testMatch: ['**/*.{unit,int}.spec.{ts,tsx}'],
      extensionsToTreatAsEsm: ['.ts', '.tsx'],
      transform: { '^.+\\.tsx?$': tsJestWeb },
      setupFilesAfterEnv: ['<rootDir>/web/src/testing/setup-tests.ts'],
      moduleNameMapper: {
        '\\.(css|svg|png)(\\?.*)?$': '<rootDir>/web/src/testing/asset-stub.ts',
        // The pure libs the SPA shares with the server (web/tsconfig.json's paths).
        '^@libs/(domain|web-rules)/(.*)$': '<rootDir>/libs/$1/src/$2',
        // Those libs import each other as the server's ESM does, with `.js`.
        '^(\\.{1,2}/.*)\\.js$': '$1',
      },
    },
  ],
};
