module.exports = {
  displayName: 'tools-webpack',
  preset: '../../jest.preset.js',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js'],
};
