// Records what sslscan and testssl.sh report on each lab configuration of
// apps/server/test/tls-scan-peers.test.ts, for developers who have neither peer installed:
//
//   node scripts/record-tls-peers.ts                 records every configuration
//   node scripts/record-tls-peers.ts ID [ID ...]     records those (ids: the fixture file names)
//
// Each recording keeps the configuration's parameters; the test fails when they no longer
// match, so a changed configuration has to be recorded again. Needs openssl, sslscan and
// testssl.sh on PATH (Debian's packages).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  type LabConfig,
  type Peer,
  type PeerRecording,
  configParameters,
  labConfigs,
  limited,
  peerInstalled,
  peerSuites,
  peerVersion,
  recordingFile,
  recordingsDir,
  startLabConfig,
} from '../apps/server/test/helpers/tls-peers.ts';
import { createTlsLab } from '../apps/server/test/helpers/tls-lab.ts';

const run = promisify(execFile);
const peers: Peer[] = ['sslscan', 'testssl'];

const missing = peers.filter((peer) => !peerInstalled[peer]);
if (missing.length > 0) {
  console.error(`Not installed: ${missing.join(', ')}. Install Debian's sslscan and testssl.sh first.`);
  process.exit(1);
}
const wanted = process.argv.slice(2);
const unknown = wanted.filter((id) => !labConfigs.some((config) => config.id === id));
if (unknown.length > 0) {
  console.error(
    `No lab configuration ${unknown.join(', ')}; known: ${labConfigs.map((c) => c.id).join(', ')}`,
  );
  process.exit(1);
}
const chosen = labConfigs.filter((config) => wanted.length === 0 || wanted.includes(config.id));

const lab = await createTlsLab();
const dhDir = mkdtempSync(path.join(tmpdir(), 'rfckit-dh-'));
const dhparamFile = path.join(dhDir, 'dh1024.pem');
const gate = limited<void>(2);
try {
  await run('openssl', ['dhparam', '-out', dhparamFile, '1024']);
  const certificates = {
    rsa: await lab.issue({ keyType: 'rsa-2048' }),
    ecdsa: await lab.issue({ keyType: 'ec-p256' }),
  };
  const recordedWith = Object.fromEntries(peers.map((peer) => [peer, peerVersion(peer)]));
  mkdirSync(recordingsDir, { recursive: true });
  const record = async (config: LabConfig): Promise<void> => {
    const server = await startLabConfig(config, certificates, dhparamFile);
    try {
      const started = performance.now();
      const suites: PeerRecording['suites'] = {};
      for (const peer of peers) suites[peer] = [...(await peerSuites[peer](server.port))].sort();
      const recording: PeerRecording = { parameters: configParameters(config), recordedWith, suites };
      writeFileSync(recordingFile(config), `${JSON.stringify(recording, null, 2)}\n`);
      console.log(`${config.id}: recorded in ${Math.round((performance.now() - started) / 1000)} s`);
    } finally {
      await server.close();
    }
  };
  await Promise.all(chosen.map((config) => gate(() => record(config))));
} finally {
  await lab.close();
  rmSync(dhDir, { recursive: true, force: true });
}
