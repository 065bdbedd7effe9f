// Unit tests of every project (`*.spec.ts` beside the code), in one jest run.
module.exports = {
  projects: ['<rootDir>/apps/*/jest.config.cjs', '<rootDir>/libs/**/jest.config.cjs', '<rootDir>/tools/*/jest.config.cjs'],
};
