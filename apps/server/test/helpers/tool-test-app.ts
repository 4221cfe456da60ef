// One set-up for the suites that call tool routes: the lab DNS server when the suite has zones,
// the real app pointed at it, and a signed-in caller. Call it while a suite is being declared:
// it registers its own hooks, and what it returns is ready inside the suite's hooks and tests.
import {
  labEnv,
  startDnsServer,
  type DnsZones,
  type LabDnsServer,
  type LabEnvOptions,
} from '@rfckit/testlab';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { toolCallerHeaders } from './accounts.ts';
import { buildTestApp, type LogCapture } from './app.ts';
import { sqliteDatabase, type TestDatabase } from './databases.ts';

type Env = Record<string, string | undefined>;

export interface ToolTestOptions {
  /** The database of a `describeEachDatabase` run; a temporary SQLite one when left out. */
  database?: TestDatabase;
  /** Starts the lab DNS server with these zones, and points the app's resolver at it. */
  zones?: DnsZones;
  /**
   * The rest of the lab the app should reach (`labEnv`'s web servers, connect-to rules, allow);
   * a function when the suite starts them in its own hooks, declared before this call.
   */
  lab?: Omit<LabEnvOptions, 'dns'> | (() => Omit<LabEnvOptions, 'dns'>);
  /** More variables for the app, over the defaults and the lab's (which a function is given). */
  env?: Env | ((lab: Record<string, string>) => Env);
  /** Keeps the app's log lines (the app logs nothing otherwise). */
  logs?: LogCapture;
  /** Runs before `app.ready()`: routes or plugins only a test needs. */
  prepare?: (app: FastifyInstance) => void | Promise<void>;
}

export interface ToolTestApp {
  readonly app: FastifyInstance;
  /** The lab DNS server; only when the suite gave zones. */
  readonly dns: LabDnsServer;
  /** The Authorization header of the signed-in caller. */
  readonly signedIn: { authorization: string };
  /** POSTs `body` as JSON, as the signed-in caller unless other `headers` are given. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** POSTs a raw payload (malformed JSON, other media types) with the JSON content type unless overridden. */
  postRaw(path: string, payload: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The `data` of a 200 answer to {@link post}; any other status fails the test with the body. */
  data<T>(path: string, body: unknown): Promise<T>;
  inject(options: InjectOptions | string): Promise<LightMyRequestResponse>;
  /** Closes the app and the lab server; the suite's afterAll does it anyway. */
  close(): Promise<void>;
}

export function toolTestApp(options: ToolTestOptions = {}): ToolTestApp {
  const database = options.database ?? sqliteDatabase();
  let app: FastifyInstance | undefined;
  let dns: LabDnsServer | undefined;
  let signedIn: { authorization: string } | undefined;

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`toolTestApp: ${what} is only there inside hooks and tests`);
    return value;
  };

  beforeAll(async () => {
    if (options.zones !== undefined) dns = await startDnsServer({ zones: options.zones });
    const lab = typeof options.lab === 'function' ? options.lab() : options.lab;
    const outbound =
      dns === undefined && lab === undefined ? {} : labEnv({ ...lab, ...(dns === undefined ? {} : { dns }) });
    const env = typeof options.env === 'function' ? options.env(outbound) : options.env;
    app = await buildTestApp(
      {
        ...database.env(),
        // tool suites send hundreds of requests as one caller
        RATE_LIMIT_SCALE: '10000',
        ...outbound,
        ...env,
      },
      options.logs,
    );
    await options.prepare?.(app);
    await app.ready();
    signedIn = await toolCallerHeaders(app);
    // building the app and signing in hash a password: slow on a busy machine
  }, 30_000);

  async function close(): Promise<void> {
    const [closingApp, closingDns] = [app, dns];
    app = undefined;
    dns = undefined;
    await closingApp?.close();
    await closingDns?.close();
  }
  afterAll(close);

  const handle: ToolTestApp = {
    get app() {
      return ready(app, 'the app');
    },
    get dns() {
      if (options.zones === undefined) throw new Error('toolTestApp: give zones to start the lab DNS server');
      return ready(dns, 'the lab DNS server');
    },
    get signedIn() {
      return ready(signedIn, 'the signed-in caller');
    },
    post(path, body, headers = handle.signedIn) {
      return handle.postRaw(path, JSON.stringify(body), headers);
    },
    postRaw(path, payload, headers = handle.signedIn) {
      return handle.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json', ...headers },
        payload,
      });
    },
    async data<T>(path: string, body: unknown): Promise<T> {
      const response = await handle.post(path, body);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { data: T }).data;
    },
    inject(injectOptions) {
      return handle.app.inject(injectOptions);
    },
    close,
  };
  return handle;
}
