/* global process */
// Jest runs the TypeScript sources as native ESM (node --experimental-vm-modules),
// transformed by swc without type checking; `pnpm typecheck` does the types.
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2024' },
    module: { type: 'es6' },
  },
];
// The console's components (.tsx), for the tests that render them to HTML.
const swcTsx = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2024',
    },
    module: { type: 'es6' },
  },
];
// A package's own `test` task (scripts/unit.ts) sets JEST_PACKAGE to its directory: the
// projects then find only that package's tests.
const pkg = process.env.JEST_PACKAGE;
const common = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.ts$': swc, '^.+\\.tsx$': swcTsx },
  testEnvironment: 'node',
  roots: pkg ? [pkg] : ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/test'],
  // No test reaches past loopback (packages/testing/src/loopback-guard.ts).
  setupFilesAfterEnv: ['<rootDir>/test/setup/loopback.ts'],
  modulePathIgnorePatterns: ['<rootDir>/.tools', '<rootDir>/.data', '/\\.tsbuild/'],
};

/** @type {import('jest').Config} */
export default {
  // Per-test limit (ms). A project-level testTimeout is ignored by Jest, so it lives here.
  testTimeout: 60_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['\\.int\\.test\\.ts$', '/node_modules/'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['**/*.int.test.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
      // PostgreSQL, Redis and RabbitMQ containers for the run (SKIPTRACE_TEST_SERVICES=local:
      // the machine's own services). Only this project has them: unit tests need no Docker.
      globalSetup: '<rootDir>/test/setup/services.global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/services.global-teardown.ts',
    },
  ],
};
