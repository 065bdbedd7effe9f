module.exports = {
  displayName: 'retry-scheduler',
  preset: '../../jest.preset.js',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'html'],
  coverageDirectory: '../../coverage/apps/retry-scheduler'
};
