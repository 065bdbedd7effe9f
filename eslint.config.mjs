import nx from '@nx/eslint-plugin';

// Boundaries: an app may use shared libraries but never another app; libraries only point "down".
// Tags: scope:<service>|scope:shared and type:app|data-access|contracts|util (see docs/architecture.md).
const depConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:data-access', 'type:contracts', 'type:util'] },
  { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:data-access', 'type:contracts', 'type:util'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  ...['manifest-api', 'payload-builder', 'dispatcher', 'retry-scheduler', 'notifier'].map((s) => ({
    sourceTag: `scope:${s}`,
    onlyDependOnLibsWithTags: ['scope:shared', `scope:${s}`],
  })),
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/out-tsc', '**/node_modules', '.local/**', 'bench/results/**'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.cjs', '**/*.mjs'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          banTransitiveDependencies: true,
          // ESLint's configs, and the build's own plugins (tools/webpack) that the apps' webpack configs require.
          allow: ['^.*/eslint(\\.base)?\\.config\\.[cm]?[jt]s$', '^.*/tools/webpack/[a-z-]+$'],
          depConstraints,
        },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
];
