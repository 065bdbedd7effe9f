import 'reflect-metadata';
import { Logger as NestLogger, type INestApplication, type Type } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Logger } from 'nestjs-pino';
import { DATABASE_OPTIONS, runMigrations, type ServiceDatabaseOptions } from '@owd/database';

export interface BootstrapOptions {
  /** Called after the app is created and before it listens (global pipes, filters, …). */
  configure?: (app: INestApplication) => void | Promise<void>;
}

/**
 * Starts a service (`main.js`) or, with the argument `migrate`, applies its migrations and exits.
 * SIGTERM runs the shutdown hooks: consumers drain, the outbox flushes, then the process exits.
 */
export async function bootstrapService(module: Type<unknown>, options: BootstrapOptions = {}): Promise<INestApplication | undefined> {
  const command = process.argv[2];
  const app = await NestFactory.create(module, { bufferLogs: true, abortOnError: false });
  app.useLogger(app.get(Logger));
  if (command === 'migrate') {
    const db = app.get<ServiceDatabaseOptions>(DATABASE_OPTIONS);
    const applied = await runMigrations(app.get(DataSource), db.schema);
    new NestLogger('migrate').log({ msg: 'migrations done', schema: db.schema, applied });
    await app.close();
    return undefined;
  }
  app.enableShutdownHooks();
  await options.configure?.(app);
  const port = app.get(ConfigService).getOrThrow<number>('PORT');
  await app.listen(port, '0.0.0.0');
  new NestLogger('bootstrap').log({ msg: 'service listening', port });
  return app;
}

/** Exits with a one-line reason (e.g. which variable is wrong) instead of a stack dump. */
export function exitOnStartupFailure(err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`${JSON.stringify({ level: 'fatal', msg: 'service failed to start', reason: message })}\n`);
  process.exit(1);
}
