// Records the signed DNSSEC lab hierarchy (packages/testlab/src/dnssec-lab.ts) for developers
// without BIND's signer, who are then served these zones:
//
//   node scripts/record-dnssec-lab.ts
//
// Needs dnssec-keygen, dnssec-signzone and dnssec-dsfromkey on PATH (Debian's bind9-utils). The
// signatures are valid for ten years from the recording (the expired case excepted), the zones'
// keys and the root trust anchor are new each time.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DNSSEC_LAB_FIXTURES, signDnssecLab } from '../packages/testlab/src/dnssec-lab.ts';
import { hasProgram } from '../packages/testlab/src/tls-servers.ts';

if (!hasProgram('dnssec-signzone')) {
  console.error('record-dnssec-lab: dnssec-signzone is not installed (apt-get install bind9-utils)');
  process.exit(1);
}
const lab = await signDnssecLab();
await mkdir(DNSSEC_LAB_FIXTURES, { recursive: true });
for (const file of await readdir(DNSSEC_LAB_FIXTURES)) await rm(path.join(DNSSEC_LAB_FIXTURES, file));
for (const zone of lab.zones) {
  const apex = /^(\S+)\s+\d+\s+IN\s+SOA\s/m.exec(zone)?.[1];
  if (apex === undefined) throw new Error('record-dnssec-lab: a zone without SOA');
  const name = apex === '.' ? 'root' : apex.replace(/\.$/, '');
  await writeFile(path.join(DNSSEC_LAB_FIXTURES, `${name}.zone`), zone);
}
await writeFile(path.join(DNSSEC_LAB_FIXTURES, 'trust-anchors.txt'), lab.trustAnchors);
console.log(`record-dnssec-lab: ${lab.zones.length} zones and the trust anchor in ${DNSSEC_LAB_FIXTURES}`);
