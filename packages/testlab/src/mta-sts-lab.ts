// MTA-STS in the lab (RFC 8461): mail domains in the lab DNS with their _mta-sts TXT records, their
// policy hosts added to a lab web server (good, redirecting, text/html, oversized, wrong-name
// certificate), and STARTTLS SMTP servers for their MX hosts, one of them with a certificate for
// another name. The app reaches the MX hosts by name through OUTBOUND_CONNECT_TO (`connectTo`).
import { createTestCa } from './ca.ts';
import type { DnsNameFixture, DnsZones } from './dns-server.ts';
import { startSmtpServer } from './smtp-servers.ts';
import type { LabTlsServer } from './tls-servers.ts';
import type { SiteSpec, WebServer } from './web-server.ts';

/** The lab's MTA-STS mail domains, by the case each shows. */
export const mtaStsLabDomains = {
  /** enforce mode, three MX hosts; mx2's certificate is for another name: mail to mx2 would fail */
  enforce: 'mtasts-enforce.example.test',
  /** testing mode; mx2 is not among the policy's mx patterns */
  testing: 'mtasts-testing.example.test',
  /** no _mta-sts record: MTA-STS is not published */
  none: 'mtasts-none.example.test',
  /** the policy host answers 301 to the enforce domain's policy */
  redirect: 'mtasts-redirect.example.test',
  /** the policy is served as text/html */
  html: 'mtasts-html.example.test',
  /** the policy is over 64 KB */
  oversized: 'mtasts-big.example.test',
  /** the policy host's certificate is for another name */
  badCertificate: 'mtasts-badcert.example.test',
  /** a null MX (RFC 7505) with a policy published */
  nullMx: 'mtasts-nullmx.example.test',
  /** the MX host name is an alias (CNAME) of a host that has the addresses */
  cnameMx: 'mtasts-cname.example.test',
  /** the lab DNS never answers the MX query */
  dnsTimeout: 'mtasts-timeout.example.test',
  /** enforce mode; mx1's certificate has expired, mx2 offers no STARTTLS, mx3's CA is not trusted */
  broken: 'mtasts-broken.example.test',
  /** enforce mode; mx1 greets with 554, mx2 accepts the connection and never greets */
  refusing: 'mtasts-refusing.example.test',
  /** no _mta-sts record; its only MX host accepts the connection and never greets */
  silent: 'mtasts-silent.example.test',
} as const;

/** The TXT record every lab domain with MTA-STS publishes at `_mta-sts.<domain>`. */
export const mtaStsLabRecord = 'v=STSv1; id=20261125T000000;';

/** Bytes of the oversized policy: past the 64 KB RFC 8461 §3.3 lets a sender stop reading at. */
export const MTA_STS_LAB_OVERSIZED_BYTES = 70 * 1024;

export interface MtaStsLabOptions {
  /** The lab web server the policy hosts are added to; the SMTP servers' certificates come from its CA. */
  web: WebServer;
  /** Every lab DNS answer of these domains held back this long (the bench's 20 ms). */
  latencyMs?: number;
}

export interface MtaStsLab {
  domains: typeof mtaStsLabDomains;
  /** The lab DNS names of the domains, their policy hosts and MX hosts. */
  zones: DnsZones;
  /** Curl-style `host:25:127.0.0.1:port` rules sending each MX host to its SMTP server. */
  connectTo: string[];
  /** The MX host names of a domain, by preference. */
  mxHosts(domain: string): string[];
  close(): Promise<void>;
}

export function mtaStsPolicyText(mode: 'enforce' | 'testing' | 'none', mx: readonly string[]): string {
  return [
    'version: STSv1',
    `mode: ${mode}`,
    ...mx.map((pattern) => `mx: ${pattern}`),
    'max_age: 604800',
    '',
  ].join('\r\n');
}

const policyPath = '/.well-known/mta-sts.txt';
const policyHost = (domain: string) => `mta-sts.${domain}`;
const plain = { 'Content-Type': 'text/plain; charset=utf-8' };

const d = mtaStsLabDomains;
const mx = (index: number, domain: string) => `mx${index}.${domain}`;
/** The MX name of the CNAME case, and the host it is an alias of. */
const cnameAlias = `mail.${d.cnameMx}`;
const cnameTarget = `relay.${d.cnameMx}`;
const mxOf: Record<string, string[]> = {
  [d.enforce]: [1, 2, 3].map((index) => mx(index, d.enforce)),
  [d.testing]: [1, 2].map((index) => mx(index, d.testing)),
  [d.none]: [mx(1, d.none)],
  [d.redirect]: [mx(1, d.redirect)],
  [d.html]: [mx(1, d.html)],
  [d.oversized]: [mx(1, d.oversized)],
  [d.badCertificate]: [mx(1, d.badCertificate)],
  [d.cnameMx]: [cnameAlias],
  [d.broken]: [1, 2, 3].map((index) => mx(index, d.broken)),
  [d.refusing]: [1, 2].map((index) => mx(index, d.refusing)),
  [d.silent]: [mx(1, d.silent)],
};

/**
 * The lab DNS names of the MTA-STS domains: their records, policy hosts (at `address`, the lab web
 * server's) and MX hosts (127.0.0.1, sent on to the SMTP servers by `connectTo`).
 */
export function mtaStsLabZones(options: { latencyMs?: number; address?: string } = {}): DnsZones {
  const latency: DnsNameFixture = options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs };
  const zones: DnsZones = {};
  const name = (owner: string, fixture: DnsNameFixture) => {
    zones[owner] = { ...zones[owner], ...fixture, ...latency };
  };
  for (const domain of Object.values(d)) {
    if (domain === d.none || domain === d.silent) continue;
    name(`_mta-sts.${domain}`, { TXT: mtaStsLabRecord });
    name(policyHost(domain), { A: options.address ?? '127.0.0.1' });
  }
  for (const [domain, hosts] of Object.entries(mxOf)) {
    name(domain, { MX: hosts.map((exchange, index) => ({ preference: (index + 1) * 10, exchange })) });
    for (const host of hosts) if (host !== cnameAlias) name(host, { A: '127.0.0.1' });
  }
  name(cnameAlias, { CNAME: cnameTarget });
  name(cnameTarget, { A: '127.0.0.1' });
  name(d.nullMx, { MX: { preference: 0, exchange: '.' } });
  name(d.dnsTimeout, { timeout: ['MX'] });
  return zones;
}

/** Starts the SMTP servers, adds the policy sites to `web`, and returns the DNS names to serve. */
export async function startMtaStsLab(options: MtaStsLabOptions): Promise<MtaStsLab> {
  const { web } = options;
  const wrongName = mx(2, d.enforce);
  const [expiredHost, plainHost, untrustedHost] = mxOf[d.broken] ?? [];
  const [rejectingHost, silentHost] = mxOf[d.refusing] ?? [];
  const notGood = new Set([
    wrongName,
    ...(mxOf[d.broken] ?? []),
    ...(mxOf[d.refusing] ?? []),
    ...(mxOf[d.silent] ?? []),
  ]);
  const goodHosts = Object.values(mxOf)
    .flat()
    .filter((host) => !notGood.has(host));

  const day = 86_400_000;
  // a CA the app is not told to trust
  const strangerCa = await createTestCa();
  const servers: LabTlsServer[] = [];
  try {
    for (const serverOptions of [
      { certificate: await web.ca.issue({ names: goodHosts }) },
      { certificate: await web.ca.issue({ names: [`not-${wrongName}`] }) },
      {
        certificate: await web.ca.issue({
          names: [expiredHost ?? ''],
          notBefore: new Date(Date.now() - 400 * day),
          notAfter: new Date(Date.now() - 30 * day),
        }),
      },
      { certificate: await strangerCa.issue({ names: [untrustedHost ?? ''] }) },
    ])
      servers.push(await startSmtpServer({ variant: 'starttls', ...serverOptions }));
    servers.push(await startSmtpServer({ variant: 'no-starttls' }));
    servers.push(await startSmtpServer({ variant: 'reject-554', name: rejectingHost ?? '' }));
    servers.push(await startSmtpServer({ variant: 'no-banner' }));
  } catch (error) {
    await Promise.all(servers.map((server) => server.close()));
    throw error;
  }
  const [good, wrong, expired, untrusted, noStarttls, rejecting, silent] = servers as [
    LabTlsServer,
    LabTlsServer,
    LabTlsServer,
    LabTlsServer,
    LabTlsServer,
    LabTlsServer,
    LabTlsServer,
  ];

  const sites: Record<string, SiteSpec> = {
    [policyHost(d.enforce)]: {
      routes: { [policyPath]: { headers: plain, body: mtaStsPolicyText('enforce', mxOf[d.enforce] ?? []) } },
    },
    [policyHost(d.broken)]: {
      routes: { [policyPath]: { headers: plain, body: mtaStsPolicyText('enforce', [`*.${d.broken}`]) } },
    },
    [policyHost(d.refusing)]: {
      routes: { [policyPath]: { headers: plain, body: mtaStsPolicyText('enforce', [`*.${d.refusing}`]) } },
    },
    [policyHost(d.testing)]: {
      routes: { [policyPath]: { headers: plain, body: mtaStsPolicyText('testing', [mx(1, d.testing)]) } },
    },
    [policyHost(d.nullMx)]: {
      routes: { [policyPath]: { headers: plain, body: mtaStsPolicyText('enforce', [`*.${d.nullMx}`]) } },
    },
    [policyHost(d.cnameMx)]: {
      routes: { [policyPath]: { headers: plain, body: mtaStsPolicyText('enforce', [`*.${d.cnameMx}`]) } },
    },
    [policyHost(d.dnsTimeout)]: {
      routes: { [policyPath]: { headers: plain, body: mtaStsPolicyText('enforce', [`*.${d.dnsTimeout}`]) } },
    },
    [policyHost(d.redirect)]: {
      routes: { [policyPath]: { status: 301, redirect: `https://${policyHost(d.enforce)}${policyPath}` } },
    },
    [policyHost(d.html)]: {
      routes: {
        [policyPath]: {
          headers: { 'Content-Type': 'text/html; charset=utf-8' },
          body: mtaStsPolicyText('enforce', [mx(1, d.html)]),
        },
      },
    },
    [policyHost(d.oversized)]: {
      routes: { [policyPath]: { headers: plain, bigBody: { bytes: MTA_STS_LAB_OVERSIZED_BYTES } } },
    },
    [policyHost(d.badCertificate)]: {
      certificate: 'wrong-name',
      routes: {
        [policyPath]: { headers: plain, body: mtaStsPolicyText('enforce', [mx(1, d.badCertificate)]) },
      },
    },
  };
  for (const [host, spec] of Object.entries(sites)) await web.addSite(host, spec);

  const zones = mtaStsLabZones({ ...options, address: web.address });

  const connectTo = [
    ...goodHosts.map((host) => `${host}:25:127.0.0.1:${good.port}`),
    `${cnameTarget}:25:127.0.0.1:${good.port}`,
    `${wrongName}:25:127.0.0.1:${wrong.port}`,
    `${expiredHost}:25:127.0.0.1:${expired.port}`,
    `${untrustedHost}:25:127.0.0.1:${untrusted.port}`,
    `${plainHost}:25:127.0.0.1:${noStarttls.port}`,
    `${rejectingHost}:25:127.0.0.1:${rejecting.port}`,
    ...[silentHost, ...(mxOf[d.silent] ?? [])].map((host) => `${host}:25:127.0.0.1:${silent.port}`),
  ];
  return {
    domains: d,
    zones,
    connectTo,
    mxHosts: (domain) => mxOf[domain] ?? [],
    async close() {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}
