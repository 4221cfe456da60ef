// The server for browser journeys, with its mail going over real SMTP: a loopback smtp-server
// receives every message and files it where e2e/mail.ts reads it. Its tools reach the network
// lab: a DNS server and web servers (a test CA) on loopback serving e2e/lab-sites.ts, and the
// signed DNSSEC hierarchy of the testlab (its root as the trust anchor). Then the real server
// starts with SMTP_URL and the lab's environment.
import { createHash, X509Certificate } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import {
  buildDnssecLab,
  hasProgram,
  labEnv,
  startDnsServer,
  startMtaStsLab,
  startNodeTlsServer,
  startScriptedTlsServer,
  startSmtpServer,
  startStarttlsSmtpServer,
  startWebServer,
  type DnsZones,
} from '@rfckit/testlab';
import { SMTPServer } from 'smtp-server';
import { servePublishing } from './lab-dns.ts';
import {
  arcZones,
  dkimZones,
  inspectorZones,
  labInspectorMx,
  labPrivateNames,
  labSites,
  labDaneDomains,
  labDaneMx,
  labDaneRecords,
  labSubmission,
  labTlsHosts,
  spfZones,
  unreachableSite,
} from './lab-sites.ts';

const dataDir = process.env.DATA_DIR;
if (dataDir === undefined) throw new Error('e2e/serve.ts needs DATA_DIR');
const inbox = path.join(dataDir, 'smtp-inbox');
mkdirSync(inbox, { recursive: true });

/** The kind of message, from its subject, as the outbox names files: verify, email-change, reset, invitation. */
function kindOf(raw: string): string {
  const subject = /^Subject: (.*)$/im.exec(raw)?.[1] ?? '';
  // first: an organisation's name inside this subject could read like another kind's words
  if (/^invitation to join /i.test(subject)) return 'invitation';
  if (/new email address/i.test(subject)) return 'email-change';
  if (/confirm your email address/i.test(subject)) return 'verify';
  if (/reset your .*password/i.test(subject)) return 'reset';
  return 'other';
}

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received += 1;
      const name = `${String(Date.now()).padStart(15, '0')}-${String(received).padStart(5, '0')}-${kindOf(raw)}.eml`;
      writeFileSync(path.join(inbox, name), raw);
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;

const web = await startWebServer({ sites: labSites });
// the lab writes its CA to a temp folder of its own, which Playwright's kill at the end would
// leave behind: keep the copy in DATA_DIR instead, which every run wipes
const caFile = path.join(dataDir, 'lab-ca.pem');
copyFileSync(web.caFile, caFile);
rmSync(path.dirname(web.caFile), { recursive: true, force: true });
const zones: DnsZones = {};
for (const name of Object.keys(labSites)) zones[name] = { A: '127.0.0.1' };
for (const [name, address] of Object.entries(labPrivateNames)) zones[name] = { A: address };
zones[unreachableSite] = { A: '127.0.0.1' };
zones[labSubmission.host] = { A: '127.0.0.1' };
// a loopback port nobody listens on, where the unreachable site's https and http are sent
const probe = createServer();
await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
const closedPort = (probe.address() as AddressInfo).port;
await new Promise<void>((resolve) => probe.close(() => resolve()));
Object.assign(zones, dkimZones());
Object.assign(zones, arcZones(dataDir));
Object.assign(zones, spfZones);
// MTA-STS mail domains: policy hosts on the lab web server, STARTTLS SMTP servers for their MX hosts
const mtaSts = await startMtaStsLab({ web });
Object.assign(zones, mtaSts.zones);
Object.assign(zones, inspectorZones);
// the lab root, test. and the signed (and broken) domains under it, for the DNSKEY tool's Chain
// tab; the fixture zones above stay deeper than test., so they still answer for their names
// and, where dnssec-signzone can sign them in (CI installs it), the DANE live check's TLSA records
// for a STARTTLS SMTP server of the lab CA
const daneMail = await web.ca.issue({ names: Object.values(labDaneDomains).map(labDaneMx) });
const daneSmtp = await startStarttlsSmtpServer({ certificate: daneMail });
const spkiSha256 = (pem: string) =>
  createHash('sha256')
    .update(new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
const dnssecLab = await buildDnssecLab(
  hasProgram('dnssec-signzone') || process.env.CI === 'true'
    ? { extraRecords: labDaneRecords(spkiSha256(daneMail.cert), spkiSha256(web.ca.cert)) }
    : {},
);
const dns = await startDnsServer({ zones, signedZones: dnssecLab.zones });
// the TLS tester's servers, reached by name on any port
const currentTls = await startNodeTlsServer({
  certificate: await web.ca.issue({ names: [labTlsHosts.current] }),
  minVersion: 'TLSv1.2',
});
// one ECDSA and one RSA certificate: a client gets the one its suites can use
const dualTls = await startNodeTlsServer({
  certificate: await web.ca.issue({ names: [labTlsHosts.dual] }),
  extraCertificates: [await web.ca.issue({ names: [labTlsHosts.dual], keyType: 'rsa-2048' })],
  minVersion: 'TLSv1.2',
});
const oldTls = await startScriptedTlsServer({
  versions: ['TLSv1.0', 'TLSv1.2'],
  // AES128-SHA, DES-CBC3-SHA
  suites: [0x002f, 0x000a],
  // RSA key exchange needs an RSA key
  certificate: await web.ca.issue({ names: [labTlsHosts.old], keyType: 'rsa-2048' }),
  fallbackScsv: false,
});
const brokenTls = await startScriptedTlsServer({
  versions: ['SSLv3'],
  // AES128-SHA, EXP-DES-CBC-SHA
  suites: [0x002f, 0x0008],
  certificate: await web.ca.issue({ names: [labTlsHosts.broken] }),
});
const stalledTls = await startScriptedTlsServer({
  versions: ['TLSv1.2'],
  // ECDHE-RSA-AES128-GCM-SHA256
  suites: [0xc02f],
  certificate: await web.ca.issue({ names: [labTlsHosts.stalled], keyType: 'rsa-2048' }),
  stallAfterServerHello: true,
});
// the SMTP session inspector's mail hosts: one with working STARTTLS, one that answers it 454
const inspectorCertificate = await web.ca.issue({ names: Object.values(labInspectorMx) });
const inspectorGood = await startSmtpServer({
  variant: 'starttls',
  certificate: inspectorCertificate,
  name: labInspectorMx.good,
});
const inspectorRefusing = await startSmtpServer({
  variant: 'starttls-454',
  certificate: inspectorCertificate,
  name: labInspectorMx.refusing,
});
// the SMTP TLS identity tool's submission server: STARTTLS on 587, a DNS-ID and an SRV-ID (RFC 4985)
const submission = await startStarttlsSmtpServer({
  certificate: await web.ca.issue({ names: [labSubmission.host], srvNames: [labSubmission.srvId] }),
});
// specs publish records in it at run time (e2e/lab-dns.ts)
await servePublishing(dns, dataDir);
// DNS_SERVERS, OUTBOUND_ALLOW=127.0.0.0/8, OUTBOUND_CONNECT_TO, OUTBOUND_CA_FILE and the lab root's
// DNSSEC trust anchor
Object.assign(
  process.env,
  labEnv({
    dns,
    web,
    connectTo: [
      `${unreachableSite}:443:127.0.0.1:${closedPort}`,
      `${unreachableSite}:80:127.0.0.1:${closedPort}`,
      `${labTlsHosts.current}::127.0.0.1:${currentTls.port}`,
      `${labTlsHosts.old}::127.0.0.1:${oldTls.port}`,
      `${labTlsHosts.dual}::127.0.0.1:${dualTls.port}`,
      `${labTlsHosts.broken}::127.0.0.1:${brokenTls.port}`,
      `${labTlsHosts.stalled}::127.0.0.1:${stalledTls.port}`,
      ...Object.values(labDaneDomains).map((domain) => `${labDaneMx(domain)}:25:127.0.0.1:${daneSmtp.port}`),
      ...mtaSts.connectTo,
      `${labInspectorMx.good}:25:127.0.0.1:${inspectorGood.port}`,
      `${labInspectorMx.refusing}:25:127.0.0.1:${inspectorRefusing.port}`,
      `${labSubmission.host}:587:127.0.0.1:${submission.port}`,
    ],
  }),
  { OUTBOUND_CA_FILE: caFile, DNSSEC_TRUST_ANCHORS: dnssecLab.trustAnchorFile },
);
await import('../apps/server/src/server.ts');
