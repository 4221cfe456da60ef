import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';

const SHUTDOWN_TIMEOUT_MS = 10_000;

function start(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      // a configuration mistake is not a crash: the message alone, no stack trace
      console.error(`rfckit: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

/** Listens on HOST, or on every interface: IPv6 dual stack where the host has IPv6, else IPv4. */
async function listen(app: FastifyInstance, config: Config): Promise<void> {
  if (config.host !== undefined) {
    await app.listen({ port: config.port, host: config.host });
    return;
  }
  try {
    await app.listen({ port: config.port, host: '::' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL') throw error;
    await app.listen({ port: config.port, host: '0.0.0.0' });
  }
}

function handleSignals(app: FastifyInstance): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) {
      app.log.warn({ signal }, 'second signal: exiting without waiting for requests to finish');
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing open requests');
    const timer = setTimeout(() => {
      app.log.error(`shutdown took longer than ${SHUTDOWN_TIMEOUT_MS / 1000} s: exiting`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app.close().then(
      () => {
        app.log.info('shut down cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

const config = start();
let app: FastifyInstance;
try {
  app = await buildApp(config);
  await listen(app, config);
} catch (error) {
  console.error(`rfckit failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

handleSignals(app);
process.on('unhandledRejection', (reason) => {
  app.log.fatal({ err: reason }, 'unhandled promise rejection');
  process.exit(1);
});

const address = app.server.address();
const port = typeof address === 'object' && address !== null ? address.port : config.port;
app.log.info(
  { url: config.publicUrl ?? `http://localhost:${port}`, address, port, env: config.nodeEnv },
  `rfckit listening on port ${port}`,
);
