// The scanner's own chain verification (used when only a raw probe read the certificates) against
// OpenSSL's, through Node's TLS client: the same chains served by a lab Node server, verified by a
// real handshake with the same trust anchor, must come out the same (trusted, or the same code).
import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import { createTestCa, startNodeTlsServer, type IssuedCertificate, type TestCa } from '@rfckit/testlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../src/tls/certificate.ts';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const NAME = 'chain.example.test';

let root: TestCa;
let otherRoot: TestCa;
let intermediate: TestCa;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  root = await createTestCa({ name: 'rfckit chain test root' });
  otherRoot = await createTestCa({ name: 'rfckit unknown root' });
  intermediate = await root.intermediate({ name: 'rfckit chain test intermediate' });
}, 60_000);

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

/** OpenSSL's verdict: a handshake by Node's TLS client trusting only `anchor`. */
async function opensslVerdict(served: IssuedCertificate, anchor: string): Promise<string | null> {
  const server = await startNodeTlsServer({ certificate: served, minVersion: 'TLSv1.2' });
  closers.push(server.close);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: server.host,
      port: server.port,
      servername: NAME,
      ca: [anchor],
      rejectUnauthorized: false,
    });
    socket.once('secureConnect', () => {
      const error = socket.authorizationError as (Error & { code?: string }) | string | null;
      socket.destroy();
      resolve(error === null ? null : typeof error === 'string' ? error : (error.code ?? error.message));
    });
    socket.once('error', reject);
  });
}

const derChain = (chain: string) =>
  (chain.match(PEM_CERTIFICATE) ?? []).map((pem) => new Uint8Array(new X509Certificate(pem).raw));

describe('verifyChain agrees with OpenSSL', { timeout: 60_000 }, () => {
  const cases: [string, () => Promise<{ served: IssuedCertificate; anchor: string }>][] = [
    [
      'leaf and root from the trusted root',
      async () => ({ served: await root.issue({ names: [NAME] }), anchor: root.cert }),
    ],
    [
      'leaf alone from the trusted root',
      async () => {
        const issued = await root.issue({ names: [NAME] });
        return { served: { ...issued, chain: issued.cert }, anchor: root.cert };
      },
    ],
    [
      'leaf, intermediate and root',
      async () => ({ served: await intermediate.issue({ names: [NAME] }), anchor: root.cert }),
    ],
    [
      'leaf without its intermediate (an incomplete chain)',
      async () => {
        const issued = await intermediate.issue({ names: [NAME] });
        return { served: { ...issued, chain: issued.cert }, anchor: root.cert };
      },
    ],
    [
      'leaf and intermediate under a root the client does not trust',
      async () => {
        const issued = await intermediate.issue({ names: [NAME] });
        const [leaf = '', middle = ''] = issued.chain.match(PEM_CERTIFICATE) ?? [];
        return { served: { ...issued, chain: `${leaf}\n${middle}\n` }, anchor: otherRoot.cert };
      },
    ],
    [
      'leaf and root of an unknown CA',
      async () => ({ served: await otherRoot.issue({ names: [NAME] }), anchor: root.cert }),
    ],
    [
      'a self-signed leaf',
      async () => ({ served: await root.issue({ names: [NAME], selfSigned: true }), anchor: root.cert }),
    ],
  ];

  it.each(cases)('%s', async (_, make) => {
    const { served, anchor } = await make();
    const expected = await opensslVerdict(served, anchor);
    const ours = verifyChain(derChain(served.chain), [anchor]);
    expect(ours.trusted).toBe(expected === null);
    expect(ours.problem?.code ?? null).toBe(expected);
  });

  it('finds the verdicts the cases are meant to show', async () => {
    // guards the table above: each kind of failure really occurs among the cases
    const issued = await intermediate.issue({ names: [NAME] });
    expect(verifyChain(derChain(issued.cert), [root.cert]).problem?.code).toBe(
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    );
    expect(verifyChain(derChain(issued.chain), [root.cert])).toEqual({ trusted: true });
    expect(verifyChain([], [root.cert]).trusted).toBe(false);
  });
});
