// Jest runs the TypeScript sources as native ESM (node --experimental-vm-modules),
// transformed by swc without type checking; `pnpm typecheck` does the types.
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2024' },
    module: { type: 'es6' },
  },
];
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/test'],
  modulePathIgnorePatterns: ['<rootDir>/.tools', '<rootDir>/.data'],
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
    },
  ],
};
