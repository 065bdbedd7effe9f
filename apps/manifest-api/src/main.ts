import { join } from 'node:path';
import { bootstrapService, exitOnStartupFailure } from '@owd/platform';

// `openapi` needs neither configuration nor infrastructure, so the app module (which validates config) loads only to serve.
async function main(): Promise<void> {
  if (process.argv[2] === 'openapi') {
    const { exportOpenApi } = await import('./app/openapi/export-openapi');
    await exportOpenApi(process.argv[3] ?? 'docs/openapi.json');
    return;
  }
  const [{ AppModule }, { configure }] = await Promise.all([import('./app/app.module'), import('./app/configure')]);
  // The build puts the console's files beside main.js (webpack.config.js, ConsoleBundlePlugin).
  await bootstrapService(AppModule, { configure: (app) => configure(app, { consoleDir: join(__dirname, 'console') }) });
}

main().catch(exitOnStartupFailure);
