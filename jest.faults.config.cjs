// The fault-injection suite (`npm run test:faults`, part of `npm test`): the built services as processes on
// the suite's own broker and database, a stream of results, one fault per case, then the ledger.
// See docs/reliability.md.
module.exports = {
  displayName: 'faults',
  preset: './jest.preset.js',
  testEnvironment: 'node',
  roots: ['<rootDir>/e2e/faults'],
  testMatch: ['<rootDir>/e2e/faults/**/*.fault-spec.ts'],
  globalSetup: '<rootDir>/e2e/faults/support/global-setup.ts',
  globalTeardown: '<rootDir>/e2e/faults/support/global-teardown.ts',
  // Longer with FAULT_RESULTS (e2e/faults/support/harness.ts STREAM): the stream, then the settling of every result.
  testTimeout: 240_000 + Number(process.env.FAULT_RESULTS ?? 300) * 150,
};
