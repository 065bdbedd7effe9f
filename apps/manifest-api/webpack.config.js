const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('path');
const { NormalModuleReplacementPlugin } = require('webpack');
const { AsciiOnlyPlugin } = require('../../tools/webpack/ascii-only-plugin');
const { ConsoleBundlePlugin } = require('./console/bundle');

module.exports = {
  output: {
    path: join(__dirname, '../../dist/apps/manifest-api'),
    clean: true,
    ...(process.env.NODE_ENV !== 'production' && {
      devtoolModuleFilenameTemplate: '[absolute-resource-path]',
    }),
  },
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      tsConfig: './tsconfig.app.json',
      // The OpenAPI document (docs/openapi.json, held to the decorators by openapi.spec.ts), served from beside main.js.
      assets: ['./src/assets', { input: 'docs', glob: 'openapi.json', output: '.' }],
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: true,
      // Mappings and file names without the sources' text: stack traces need no more (docs/performance.md).
      sourceMap: 'nosources-source-map',
    }),
    // The web console (console/): bundled with esbuild into dist/apps/manifest-api/console, served at /console/.
    new ConsoleBundlePlugin(),
    // The running API's OpenAPI decorators record nothing and @nestjs/swagger is not loaded with them: src/app/openapi/
    // swagger-at-runtime.ts takes api-docs.ts' place (only the docs' pages load the package, with their first request).
    new NormalModuleReplacementPlugin(/[\\/]openapi[\\/]api-docs\.ts$/, join(__dirname, 'src/app/openapi/swagger-at-runtime.ts')),
    // Escapes what is not ASCII, so V8 holds the bundle's source one byte per character (docs/performance.md).
    new AsciiOnlyPlugin(),
  ],
};
