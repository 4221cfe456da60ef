// What the TLS scanner's suites share: a lab CA trusted through OUTBOUND_CA_FILE, and a net
// layer that sends a lab name to one loopback server (OUTBOUND_CONNECT_TO), as production
// configuration would reach a real host.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type IssuedCertificate,
  type KeyType,
  type LabTlsServer,
  type TestCa,
  createTestCa,
  hasProgram,
} from '@rfckit/testlab';
import { parseConnectTo } from '../../src/net/connect-to.ts';
import { type NetSession, createNetLayer } from '../../src/net/layer.ts';

// CI installs the peers the TLS suites compare with (.ci/run): there a missing one is a broken
// setup, not a reason to skip the comparison
const missingPeers = [
  ...['openssl', 'sslscan'].filter((name) => !hasProgram(name)),
  ...(hasProgram('testssl') || hasProgram('testssl.sh') ? [] : ['testssl.sh']),
];
if (missingPeers.length > 0 && process.env.CI)
  throw new Error(`CI is set but ${missingPeers.join(', ')} is not on PATH: install it (.ci/run does)`);

/** The name every lab TLS server answers for. */
export const LAB_TLS_HOST = 'tls.example.test';

export interface TlsLab {
  ca: TestCa;
  /** The lab CA as a PEM file, for OUTBOUND_CA_FILE. */
  caFile: string;
  issue(options?: {
    keyType?: KeyType;
    names?: string[];
    notAfter?: Date;
    selfSigned?: boolean;
  }): Promise<IssuedCertificate>;
  /** A session whose LAB_TLS_HOST, any port, connects to 127.0.0.1:`port`. */
  session(port: number, options?: { allowLoopback?: boolean }): NetSession;
  /** Waits for a lab server to listen, and keeps it to close with the lab. */
  started<T extends LabTlsServer>(server: Promise<T>): Promise<T>;
  /** Closes every server `started` kept, and removes the CA file. */
  close(): Promise<void>;
}

export async function createTlsLab(): Promise<TlsLab> {
  const ca = await createTestCa();
  const dir = mkdtempSync(path.join(tmpdir(), 'rfckit-tls-lab-'));
  const caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  const servers: LabTlsServer[] = [];
  return {
    ca,
    caFile,
    issue: (options = {}) =>
      ca.issue({
        names: options.names ?? [LAB_TLS_HOST],
        ...(options.keyType === undefined ? {} : { keyType: options.keyType }),
        ...(options.notAfter === undefined
          ? {}
          : {
              notAfter: options.notAfter,
              notBefore: new Date(options.notAfter.getTime() - 30 * 86_400_000),
            }),
        ...(options.selfSigned === undefined ? {} : { selfSigned: options.selfSigned }),
      }),
    session: (port, options = {}) =>
      createNetLayer({
        allow: options.allowLoopback === false ? [] : ['127.0.0.0/8'],
        connectTo: parseConnectTo(`${LAB_TLS_HOST}::127.0.0.1:${port}`),
        caFile,
        userAgent: 'rfckit-test',
      }).session(),
    async started(server) {
      const running = await server;
      servers.push(running);
      return running;
    },
    async close() {
      await Promise.all(servers.map((server) => server.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
