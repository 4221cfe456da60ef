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
