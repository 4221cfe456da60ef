// Helpers for tests, conformance suites and benchmarks only, kept off the public index so that
// product code cannot come to depend on them: import them as `@rfckit/standards/testing`.
export { createRng, type Rng } from './core/seeded-random.ts';
export { ed25519Key, rsaSpki } from './dkim/test-keys.ts';
export {
  expectationVectors,
  fields,
  observerOrigin,
  site,
  type SiteSpec,
} from './http-headers/expectation-vectors.ts';
export { sectxtSignatureBlock, signedFile } from './security-txt/test-fixtures.ts';
export { FUZZ_NAMES, fuzzZones, generateSpfRecord, mutateSpfRecord } from './spf/fuzz-records.ts';
export { signatureVectors, type SignatureVector } from './dnssec/signature-vectors.ts';
export {
  aRecord,
  dnskeyRecord,
  dsRecord,
  mxRecord,
  nsec3Record,
  nsecRecord,
  rrsigRecord,
  txtRecord,
} from './dnssec/test-records.ts';
export {
  dsOf,
  encodeRdata,
  fixtureZonesOf,
  generateKey,
  signRrset,
  signZone,
  withRdata,
  type SignatureWindow,
  type SigningKey,
  type ZoneSpec,
} from './dnssec/testing/sign-zone.ts';
