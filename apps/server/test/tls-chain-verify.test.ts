// The scanner's own chain verification (used when only a raw probe read the certificates) against
// OpenSSL's, through Node's TLS client: the same chains served by a lab Node server, verified by a
// real handshake with the same trust anchor, must come out the same (trusted, or the same code).
import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import { createTestCa, startNodeTlsServer, type IssuedCertificate, type TestCa } from '@rfckit/testlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  certificateFromProbe,
  completeChain,
  issuerCertificateOf,
  verifyChain,
  type IssuerFetcher,
} from '../src/tls/certificate.ts';

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
      'leaf under an intermediate marked cA=FALSE',
      async () => {
        const notCa = await root.intermediate({ name: 'rfckit signer that is no CA', notCa: true });
        return { served: await notCa.issue({ names: [NAME] }), anchor: root.cert };
      },
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

describe('completeChain fetches what the server left out from caIssuers', { timeout: 60_000 }, () => {
  const AIA = 'http://aia.example.test/issuer.crt';
  const probed = async (caIssuersUrl?: string) => {
    const issued = await intermediate.issue({ names: [NAME], ...(caIssuersUrl ? { caIssuersUrl } : {}) });
    return certificateFromProbe(derChain(issued.cert), NAME, [root.cert]);
  };
  const serving =
    (body: Uint8Array | string, asked: string[] = []): IssuerFetcher =>
    (url) => {
      asked.push(url);
      const certificate = issuerCertificateOf(typeof body === 'string' ? Buffer.from(body) : body);
      return Promise.resolve(
        certificate === undefined ? { failure: `${url} sent no certificate` } : { certificate },
      );
    };

  it('trusts, as incomplete, a chain whose missing intermediate is fetched as DER or PEM', async () => {
    for (const body of [new Uint8Array(new X509Certificate(intermediate.cert).raw), intermediate.cert]) {
      const asked: string[] = [];
      const scan = await probed(AIA);
      expect(scan).toMatchObject({ trusted: false, problem: { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' } });
      const { scan: completed, notes } = await completeChain(scan, [root.cert], serving(body, asked));
      expect(asked).toEqual([AIA]);
      expect(notes).toEqual([]);
      expect(completed.trusted).toBe(true);
      expect(completed.problem?.code).toBe('INCOMPLETE_CHAIN');
      expect(completed.problem?.message).toContain(`CN=rfckit chain test intermediate (fetched from ${AIA})`);
    }
  });

  it('leaves the chain untrusted, with a note, when the fetch brings no certificate', async () => {
    const { scan, notes } = await completeChain(
      await probed(AIA),
      [root.cert],
      serving('<html>moved</html>'),
    );
    expect(scan).toMatchObject({ trusted: false, problem: { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' } });
    expect(notes).toEqual([`Fetching the missing intermediate certificate: ${AIA} sent no certificate`]);
  });

  it('fetches nothing for a leaf without caIssuers, a trusted chain or a self-signed one', async () => {
    const asked: string[] = [];
    const fetcher = serving(intermediate.cert, asked);
    await completeChain(await probed(), [root.cert], fetcher);
    const full = await intermediate.issue({ names: [NAME], caIssuersUrl: AIA });
    await completeChain(certificateFromProbe(derChain(full.chain), NAME, [root.cert]), [root.cert], fetcher);
    const self = await root.issue({ names: [NAME], selfSigned: true });
    await completeChain(certificateFromProbe(derChain(self.chain), NAME, [root.cert]), [root.cert], fetcher);
    expect(asked).toEqual([]);
  });

  it('stops when the fetched certificate is not the issuer (no loop)', async () => {
    const asked: string[] = [];
    const stranger = await otherRoot.issue({ names: ['stranger.example.test'] });
    const { scan } = await completeChain(await probed(AIA), [root.cert], serving(stranger.cert, asked));
    expect(scan.trusted).toBe(false);
    expect(asked.length).toBeLessThanOrEqual(3);
  });
});
