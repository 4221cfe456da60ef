import type { WebServer } from './web-server.ts';

export interface LabEnvOptions {
  /** The lab DNS server (its `address` is `127.0.0.1:port`). */
  dns?: { address: string };
  /** Web servers whose sites the app should reach, and whose CA it should trust. */
  web?: WebServer | readonly WebServer[];
  /** More curl-style connect-to entries. */
  connectTo?: readonly string[];
  /**
   * OUTBOUND_ALLOW: default `127.0.0.0/8` so the app may reach the lab; `false` leaves it
   * unset, which is the production default (for SSRF tests that expect refusals).
   */
  allow?: string | false;
}

/**
 * The environment a test hands `buildTestApp` (or the server process) so that the app's
 * outbound layer talks to the lab only: DNS_SERVERS, OUTBOUND_ALLOW, OUTBOUND_CONNECT_TO and
 * OUTBOUND_CA_FILE (the lab CA, trusted in addition to Node's store).
 */
export function labEnv(options: LabEnvOptions): Record<string, string> {
  const webs =
    options.web === undefined ? [] : Array.isArray(options.web) ? options.web : [options.web as WebServer];
  const env: Record<string, string> = {};
  if (options.dns !== undefined) env.DNS_SERVERS = options.dns.address;
  const allow = options.allow ?? '127.0.0.0/8';
  if (allow !== false) env.OUTBOUND_ALLOW = allow;
  const connectTo = [...webs.flatMap((web) => web.connectTo()), ...(options.connectTo ?? [])];
  if (connectTo.length > 0) env.OUTBOUND_CONNECT_TO = connectTo.join(',');
  // one CA per lab: servers started with the same `ca` write the same certificate
  if (new Set(webs.map((web) => web.ca.cert)).size > 1)
    throw new Error('labEnv: give the web servers one CA (startWebServer({ ca }))');
  const [first] = webs;
  if (first !== undefined) env.OUTBOUND_CA_FILE = first.caFile;
  return env;
}
