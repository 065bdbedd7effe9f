import 'reflect-metadata';
import { Logger as NestLogger, type INestApplication, type Type } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Logger } from 'nestjs-pino';
import { DATABASE_OPTIONS, pendingMigrations, runMigrations, type ServiceDatabaseOptions } from '@owd/database';
import { ServiceHttpAdapter, type ServiceRequest } from './http-server';
import { useRequestLogger } from './request-logger';

export interface BootstrapOptions {
  /** The class of the service's HTTP requests, when it adds properties of its own to them (see ServiceRequest). */
  request?: typeof ServiceRequest;
  /** Called after the app is created and before it listens (global pipes, filters, …); the request logger comes after its middlewares unless it placed it. */
  configure?: (app: INestApplication) => void | Promise<void>;
}

/** How often `await-schema` asks the database whether the migration Job has finished. */
const SCHEMA_POLL_MS = 2_000;

/**
 * Starts a service (`main.js`); with the argument `migrate` applies its migrations and exits; with
 * `await-schema` waits until the database has every migration this build ships, then exits (the pods'
 * init container: a new version's pods wait for the release's migration Job instead of crash-looping).
 * SIGTERM runs the shutdown hooks: consumers drain, the outbox flushes, then the process exits.
 */
export async function bootstrapService(module: Type<unknown>, options: BootstrapOptions = {}): Promise<INestApplication | undefined> {
  const command = process.argv[2];
  // No body parsers of Nest's own: no service but the API takes a request body, and the API registers the one it
  // reads (JSON, in its configure); Nest's default would add a URL-encoded parser that every request passed through.
  const app = await NestFactory.create(module, new ServiceHttpAdapter(options.request), { bufferLogs: true, abortOnError: false, bodyParser: false });
  app.useLogger(app.get(Logger));
  if (command === 'migrate') {
    const db = app.get<ServiceDatabaseOptions>(DATABASE_OPTIONS);
    const applied = await runMigrations(app.get(DataSource), db.schema);
    new NestLogger('migrate').log({ msg: 'migrations done', schema: db.schema, applied });
    await app.close();
    return undefined;
  }
  if (command === 'await-schema') {
    await awaitSchema(app.get(DataSource), app.get<ServiceDatabaseOptions>(DATABASE_OPTIONS).schema);
    await app.close();
    return undefined;
  }
  app.enableShutdownHooks();
  await options.configure?.(app);
  useRequestLogger(app);
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

/** Returns once no migration of this build is pending; says once what it waits for. */
export async function awaitSchema(dataSource: DataSource, schema: string, pollMs = SCHEMA_POLL_MS): Promise<void> {
  const logger = new NestLogger('await-schema');
  let said = false;
  for (;;) {
    const pending = await pendingMigrations(dataSource, schema).catch((err: Error) => [`(database: ${err.message})`]);
    if (pending.length === 0) break;
    if (!said) logger.log({ msg: 'waiting for the migration Job', schema, pending });
    said = true;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  logger.log({ msg: 'schema is current', schema });
}
