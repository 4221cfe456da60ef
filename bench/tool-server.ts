// The real server, plus the DNSKEY route mounted a second time without the sign-in requirement, so
// that one process answers the same tool call with and without token verification. Bench only.
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { toolOperationRoutes } from '../apps/server/src/routes/tools/index.ts';

// set by run.ts, which sends the unauthenticated half of the load there
const unauthenticatedPrefix = process.env.BENCH_UNAUTHENTICATED_PREFIX ?? '/bench-unauthenticated/v1';
const config = loadConfig(process.env);
const app = await buildApp(config);
await app.register(toolOperationRoutes, { prefix: unauthenticatedPrefix, only: ['dnskey'] });
await app.listen({ port: config.port, host: config.host ?? '127.0.0.1' });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close());
