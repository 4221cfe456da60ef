// Small pieces the tool suites' lab set-ups share.
import net, { type AddressInfo } from 'node:net';
import type { DnsZones } from '@rfckit/testlab';

/** The TLD as a lab zone, so the last step of a tree walk gets NXDOMAIN, not REFUSED. */
export const testTld: DnsZones = { test: { SOA: { mname: 'ns.test', rname: 'hostmaster.test' } } };

/** A loopback port with nothing listening: a site or mail relay that is down. */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A UTC date-time `days` from now, without fractions. */
export function daysAhead(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * The lab servers a suite starts, each reached by name through the app's OUTBOUND_CONNECT_TO
 * (`connectTo`), and closed together by `close()`.
 */
export interface LabRoutes {
  readonly connectTo: string[];
  /** Waits for `server` and routes the names to it: on every port, or on `port` only. */
  serve<T extends { port: number; close(): Promise<void> }>(
    names: string | readonly string[],
    server: Promise<T>,
    port?: number,
  ): Promise<T>;
  /** Routes the names to a loopback port nothing listens on. */
  closed(names: string | readonly string[], port?: number): Promise<void>;
  close(): Promise<void>;
}

export function labRoutes(): LabRoutes {
  const connectTo: string[] = [];
  const servers: { close(): Promise<void> }[] = [];
  const route = (names: string | readonly string[], to: number, port?: number) => {
    for (const name of typeof names === 'string' ? [names] : names)
      connectTo.push(`${name}:${port ?? ''}:127.0.0.1:${to}`);
  };
  return {
    connectTo,
    async serve(names, server, port) {
      const running = await server;
      servers.push(running);
      route(names, running.port, port);
      return running;
    },
    async closed(names, port) {
      route(names, await closedPort(), port);
    },
    async close() {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}
