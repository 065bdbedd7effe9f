import { bootstrapService, exitOnStartupFailure } from '@owd/platform';
import { AppModule } from './app/app.module';

bootstrapService(AppModule).catch(exitOnStartupFailure);
