import { bootstrapService, exitOnStartupFailure } from '@owd/platform';
import { AppModule } from './app/app.module';
import { REBUILD_COMMAND, runProjectionRebuild } from './app/projections/rebuild.command';

if (process.argv[2] === REBUILD_COMMAND) {
  runProjectionRebuild().then(() => process.exit(0), exitOnStartupFailure);
} else {
  bootstrapService(AppModule).catch(exitOnStartupFailure);
}
