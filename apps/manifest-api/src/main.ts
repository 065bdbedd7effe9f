import { join } from 'node:path';
import { bootstrapService, exitOnStartupFailure } from '@owd/platform';

// The app module validates the configuration as it loads.
async function main(): Promise<void> {
  const [{ AppModule }, { configure }, { ApiRequest }] = await Promise.all([
    import('./app/app.module'), import('./app/configure'), import('./app/access/principal'),
  ]);
  // The build puts the console's files and the OpenAPI document beside main.js (webpack.config.js).
  await bootstrapService(AppModule, {
    request: ApiRequest,
    configure: (app) => configure(app, { consoleDir: join(__dirname, 'console'), openApiFile: join(__dirname, 'openapi.json') }),
  });
}

main().catch(exitOnStartupFailure);
