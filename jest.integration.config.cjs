// Integration and end-to-end tests (`test/**/*.e2e-spec.ts`) against a real Kafka broker and PostgreSQL.
// Run in band: the files share one broker and one database server (each test file makes its own
// database and topic prefix).
module.exports = {
  displayName: 'integration',
  preset: './jest.preset.js',
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/e2e'],
  testMatch: ['**/test/**/*.e2e-spec.ts', '<rootDir>/e2e/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  testTimeout: 90_000,
};
