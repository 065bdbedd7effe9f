const nxPreset = require('@nx/jest/preset').default;

// SWC keeps decorator metadata (Nest DI needs it) and is much faster than ts-jest on 2 cores.
module.exports = {
  ...nxPreset,
  transform: {
    '^.+\\.[tj]s$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
};
