import type { DenialView, DnssecChain, DsView, KeyView, SignatureView, ZoneStep } from '@rfckit/standards';

/**
 * Chain-of-trust results as the server sends them (typed by the schema, `dnssecChainSchema`), for
 * the DNSKEY Chain tab's tests: a secure chain, one bogus at the domain (wrong DS digest), an
 * insecure delegation proven by an NSEC3 opt-out span, and an NXDOMAIN answer proven by NSEC.
 */
const checkedAt = '2025-06-01T12:00:00.000Z';
export const anchorSource = 'https://data.iana.org/root-anchors/root-anchors.xml';

function signature(typeCovered: string, keyTag: number, signer: string, extra: Partial<SignatureView> = {}) {
  return {
    typeCovered,
    keyTag,
    algorithm: 13,
    algorithmName: 'ECDSAP256SHA256',
    signer,
    inception: '2025-05-20T00:00:00.000Z',
    expiration: '2025-06-13T12:00:00.000Z',
    outcome: 'valid',
    message: 'The signature verifies.',
    ...extra,
  } satisfies SignatureView;
}

function key(zone: string, keyTag: number, role: 'KSK' | 'ZSK', extra: Partial<KeyView> = {}) {
  const flags = role === 'KSK' ? 257 : 256;
  return {
    keyTag,
    flags,
    role,
    revoked: false,
    algorithm: 13,
    algorithmName: 'ECDSAP256SHA256',
    keySize: 256,
    matchedByDs: role === 'KSK',
    signsKeySet: role === 'KSK',
    signs: role === 'ZSK' ? ['DS', 'NSEC'] : [],
    record: `${zone === '.' ? '' : zone}. 3600 IN DNSKEY ${flags} 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==`,
    ...extra,
  } satisfies KeyView;
}

function ds(zone: string, keyTag: number, source: DsView['source'], extra: Partial<DsView> = {}) {
  const digest = '3490A6806D47F17A34C29E2CE80E8A999FFBE4BE1A4D4B25E0FE1DE6E7F8A9B0';
  return {
    keyTag,
    algorithm: 13,
    digestType: 2,
    digestName: 'SHA-256',
    digest,
    status: 'match',
    expectedDigest: null,
    source,
    record: `${zone === '.' ? '' : zone}. 86400 IN DS ${keyTag} 13 2 ${digest}`,
    ...extra,
  } satisfies DsView;
}

function zone(name: string, ksk: number, zsk: number, parent: string | null, extra: Partial<ZoneStep> = {}) {
  return {
    zone: name,
    status: 'secure',
    ds: [ds(name, ksk, parent === null ? 'trust-anchor' : 'parent')],
    dsDenial: null,
    keys: [key(name, ksk, 'KSK'), key(name, zsk, 'ZSK')],
    keySetSignatures: [signature('DNSKEY', ksk, name)],
    dsSignatures: parent === null ? [] : [signature('DS', zsk - 1, parent)],
    failure: null,
    ...extra,
  } satisfies ZoneStep;
}

export const secureChain: DnssecChain = {
  name: 'www.example.test',
  type: 'A',
  status: 'secure',
  failure: null,
  zones: [
    zone('.', 20326, 11111, null),
    zone('test', 30000, 30001, '.'),
    zone('example.test', 40000, 40001, 'test'),
  ],
  answer: {
    owner: 'www.example.test',
    type: 'A',
    status: 'ok',
    records: ['www.example.test. 300 IN A 192.0.2.10'],
    signatures: [signature('A', 40001, 'example.test', { expiration: '2025-06-04T12:00:00.000Z' })],
    denial: null,
    wildcard: null,
    zone: 'example.test',
    security: 'secure',
  },
  warnings: [
    {
      severity: 'warning',
      code: 'DNSSEC_SIGNATURE_EXPIRING',
      message: 'The RRSIG over www.example.test A expires in 3 days.',
      rfc: 'RFC 4035 §5.3.1',
      fix: 'Re-sign the zone, and check that the signer runs on schedule.',
    },
  ],
  trustAnchors: { source: anchorSource, origin: 'iana', keyTags: [20326, 38696] },
  checkedAt,
  queries: 7,
};

const wrongDsKeyDigest = 'B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17';

export const bogusChain: DnssecChain = {
  ...secureChain,
  status: 'bogus',
  failure: {
    code: 'wrong-digest',
    zone: 'example.test',
    message: 'The DS 40000 in test has the key tag and algorithm of key 40000, but not its digest.',
    fix: 'Publish the DS made from the current KSK at your registrar (dnssec-dsfromkey), and remove the old one.',
    rfc: 'RFC 4035 §5.2',
  },
  zones: [
    secureChain.zones[0]!,
    secureChain.zones[1]!,
    zone('example.test', 40000, 40001, 'test', {
      status: 'bogus',
      ds: [ds('example.test', 40000, 'parent', { status: 'wrong-digest', expectedDigest: wrongDsKeyDigest })],
      // as buildChain sends it: no key is vouched for, yet the zone's own signatures are checked
      keys: [
        key('example.test', 40000, 'KSK', { matchedByDs: false }),
        key('example.test', 40001, 'ZSK', { signs: [] }),
      ],
      failure: {
        code: 'wrong-digest',
        message: 'No DS of the parent matches a DNSKEY of example.test.',
        fix: 'Publish the DS made from the current KSK.',
      },
    }),
  ],
  answer: {
    ...secureChain.answer,
    status: 'failed',
    records: [],
    signatures: [],
    zone: null,
    security: 'bogus',
  },
  warnings: [],
};

const insecureDenial: DenialView = {
  method: 'NSEC3',
  proves: 'insecure-delegation',
  proven: true,
  optOut: true,
  closestEncloser: 'test',
  iterations: 0,
  salt: null,
  message: 'An opt-out NSEC3 span covers unsigned.test: the delegation may have no DS (RFC 5155 §6).',
  records: [
    '8H9NQ4C0BOTE8CEL9UE5QQ7C6NLB1AKQ.test. 3600 IN NSEC3 1 1 0 - 9BKTQH3U8PHAUB35UHJV4HMI2KDTU2DA NS SOA RRSIG DNSKEY NSEC3PARAM',
  ],
};

export const insecureChain: DnssecChain = {
  ...secureChain,
  name: 'www.unsigned.test',
  status: 'insecure',
  zones: [
    secureChain.zones[0]!,
    secureChain.zones[1]!,
    {
      zone: 'unsigned.test',
      status: 'insecure',
      ds: [],
      dsDenial: insecureDenial,
      keys: [],
      keySetSignatures: [],
      dsSignatures: [signature('NSEC3', 30001, 'test')],
      failure: null,
    },
  ],
  answer: {
    owner: 'www.unsigned.test',
    type: 'A',
    status: 'ok',
    records: ['www.unsigned.test. 300 IN A 192.0.2.20'],
    signatures: [],
    denial: null,
    wildcard: null,
    zone: 'unsigned.test',
    security: 'insecure',
  },
  warnings: [],
};

export const nxdomainChain: DnssecChain = {
  ...secureChain,
  name: 'nope.example.test',
  answer: {
    owner: 'nope.example.test',
    type: 'A',
    status: 'nxdomain',
    records: [],
    signatures: [signature('NSEC', 40001, 'example.test')],
    denial: {
      method: 'NSEC',
      proves: 'nxdomain',
      proven: true,
      optOut: false,
      closestEncloser: 'example.test',
      iterations: null,
      salt: null,
      message:
        'NSEC records prove nope.example.test does not exist and no wildcard covers it (RFC 4035 §5.4).',
      records: [
        'mail.example.test. 3600 IN NSEC www.example.test. A RRSIG NSEC',
        'example.test. 3600 IN NSEC mail.example.test. NS SOA RRSIG NSEC DNSKEY',
      ],
    },
    wildcard: null,
    zone: 'example.test',
    security: 'secure',
  },
  warnings: [],
};

/** Bogus at example.test: its DNSKEY set's only signature by the KSK the DS names expired a day before the check. */
export const expiredChain: DnssecChain = {
  ...secureChain,
  name: 'example.test',
  status: 'bogus',
  failure: {
    code: 'expired-signature',
    zone: 'example.test',
    message: 'The DNSKEY set of example.test: the signature expired on 2025-05-31T12:00:00.000Z.',
    fix: 'Re-sign the zone.',
    rfc: 'RFC 4035 §5.3.1',
  },
  zones: [
    secureChain.zones[0]!,
    zone('test', 30000, 30001, '.', {
      // far off, and by the ZSK, which does not vouch for the set
      keySetSignatures: [
        signature('DNSKEY', 30000, 'test', { expiration: '2035-06-01T12:00:00.000Z' }),
        signature('DNSKEY', 30001, 'test', { expiration: '2025-06-02T12:00:00.000Z' }),
      ],
    }),
    zone('example.test', 40000, 40001, 'test', {
      status: 'bogus',
      dsSignatures: [signature('DS', 30001, 'test', { expiration: '2035-06-01T12:00:00.000Z' })],
      keySetSignatures: [
        signature('DNSKEY', 40000, 'example.test', {
          expiration: '2025-05-31T12:00:00.000Z',
          outcome: 'expired',
          message: 'The signature expired on 2025-05-31T12:00:00.000Z.',
        }),
      ],
      keys: [
        key('example.test', 40000, 'KSK', { signsKeySet: false }),
        key('example.test', 40001, 'ZSK', { signs: [] }),
      ],
      failure: { code: 'expired-signature', message: 'The DNSKEY set of example.test: expired.' },
    }),
  ],
  answer: {
    owner: 'example.test',
    type: 'A',
    status: 'failed',
    records: [],
    signatures: [],
    denial: null,
    wildcard: null,
    zone: null,
    security: 'bogus',
  },
  warnings: [],
};

/** The DS set of example.test, which lives in and is signed by test, with a lab trust anchor file. */
export const dsChain: DnssecChain = {
  ...secureChain,
  name: 'example.test',
  type: 'DS',
  zones: [secureChain.zones[0]!, secureChain.zones[1]!],
  answer: {
    owner: 'example.test',
    type: 'DS',
    status: 'ok',
    records: [
      'example.test. 86400 IN DS 40000 13 2 3490A6806D47F17A34C29E2CE80E8A999FFBE4BE1A4D4B25E0FE1DE6E7F8A9B0',
    ],
    signatures: [signature('DS', 30001, 'test')],
    denial: null,
    wildcard: null,
    zone: 'test',
    security: 'secure',
  },
  trustAnchors: { source: 'DNSSEC_TRUST_ANCHORS (lab-root.txt)', origin: 'configured', keyTags: [48003] },
  warnings: [],
};
