import type { ChainFailureCode, DsView, SecurityStatus, SignatureView } from '@rfckit/standards';

import type { BadgeMeaning } from '../../components/rfc-legend.tsx';
import { StatusBadge, badgeMeanings, passGreen, type StatusStyle } from '../../components/status-badge.tsx';

// filled colours whose text keeps a 4.5:1 contrast in both themes; the word says it, not the colour

const securityStyles: Record<SecurityStatus, StatusStyle> = {
  secure: {
    text: 'secure',
    colour: passGreen,
    textColour: 'white',
    meaning: 'Every signature from the root trust anchor down verifies (RFC 4035 §4.3).',
  },
  insecure: {
    text: 'insecure',
    colour: 'gray.7',
    textColour: 'white',
    meaning:
      'A signed proof shows the delegation has no DS: the zone is unsigned and its answers unprotected.',
  },
  bogus: {
    text: 'bogus',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'A signature, DS or proof that must be there fails: validating resolvers answer SERVFAIL.',
  },
  indeterminate: {
    text: 'indeterminate',
    colour: 'orange.6',
    textColour: 'black',
    meaning: 'The DNS answers the proof needs could not be had, so there is no verdict.',
  },
};

const dsStyles: Record<DsView['status'], StatusStyle> = {
  match: {
    text: 'matches a key',
    colour: passGreen,
    textColour: 'white',
    meaning: 'A DNSKEY of the zone has this key tag and algorithm, and its digest is the one in the DS.',
  },
  'wrong-digest': {
    text: 'wrong digest',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'A key has this tag and algorithm, but its digest differs: the DS was made from another key.',
  },
  'no-key': {
    text: 'no such key',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'No DNSKEY of the zone has this key tag and algorithm.',
  },
  'unsupported-digest': {
    text: 'unsupported digest',
    colour: 'orange.6',
    textColour: 'black',
    meaning: 'The digest type is not one validators compute (RFC 8624 §3.3): the DS is ignored.',
  },
};

const signatureStyles: Record<SignatureView['outcome'], StatusStyle> = {
  valid: {
    text: 'valid',
    colour: passGreen,
    textColour: 'white',
    meaning: 'The RRSIG verifies with the key and is inside its validity window.',
  },
  expired: {
    text: 'expired',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The RRSIG’s expiration time has passed (RFC 4035 §5.3.1).',
  },
  'not-yet-valid': {
    text: 'not yet valid',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The RRSIG’s inception time is still to come (RFC 4035 §5.3.1).',
  },
  'bad-signature': {
    text: 'bad signature',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The signature does not verify over the records with the key it names.',
  },
  'no-key': {
    text: 'no key',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The zone has no DNSKEY with the RRSIG’s key tag and algorithm.',
  },
  'unsupported-algorithm': {
    text: 'unsupported algorithm',
    colour: 'orange.6',
    textColour: 'black',
    meaning: 'The algorithm is not one validators implement (RFC 8624 §3.1).',
  },
  'signer-mismatch': {
    text: 'wrong signer',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The RRSIG’s signer name is not the zone holding the records (RFC 4035 §5.3.1).',
  },
  'labels-mismatch': {
    text: 'wrong label count',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The RRSIG’s labels field exceeds the owner name’s labels (RFC 4035 §5.3.1).',
  },
  malformed: {
    text: 'malformed',
    colour: 'red.9',
    textColour: 'white',
    meaning: 'The RRSIG cannot be read.',
  },
};

const proofStyles: Record<'proven' | 'not-proven', StatusStyle> = {
  proven: {
    text: 'proven',
    colour: passGreen,
    textColour: 'white',
    meaning:
      'Signed NSEC or NSEC3 records cover the name or type: it does not exist (RFC 4035 §5.4, RFC 5155 §8).',
  },
  'not-proven': {
    text: 'not proven',
    colour: 'red.9',
    textColour: 'white',
    meaning:
      'The NSEC or NSEC3 records sent do not prove the denial: validating resolvers treat it as bogus.',
  },
};

export function SecurityBadge({ status, label }: { status: SecurityStatus; label?: string }) {
  return <StatusBadge style={securityStyles[status]} {...(label === undefined ? {} : { label })} />;
}

export function DsStatusBadge({ status }: { status: DsView['status'] }) {
  return <StatusBadge style={dsStyles[status]} />;
}

export function SignatureOutcomeBadge({ outcome }: { outcome: SignatureView['outcome'] }) {
  return <StatusBadge style={signatureStyles[outcome]} />;
}

/** What broke, in words, for the title of a failure (its code stays on the alert as data). */
export const failureTitles: Record<ChainFailureCode, string> = {
  'expired-signature': 'a signature has expired',
  'signature-not-yet-valid': 'a signature is not valid yet',
  'bad-signature': 'a signature does not verify',
  'wrong-signer': 'a signature names another zone as signer',
  'missing-signature': 'records are not signed',
  'no-matching-ds': 'no DNSKEY matches the DS',
  'wrong-digest': 'the DS digest matches no key',
  'missing-dnskey': 'the zone publishes no DNSKEY',
  'algorithm-mismatch': 'the DS and key algorithms differ',
  'unsupported-algorithm': 'an algorithm validators do not support',
  'bad-denial-proof': 'the proof of non-existence fails',
  'missing-denial-proof': 'the proof of non-existence is missing',
  'no-trust-anchor': 'no trust anchor for the root',
  'dns-failure': 'a DNS query got no answer',
  'cname-loop': 'the CNAMEs loop',
  'too-many-cnames': 'too many CNAMEs',
  'invalid-name': 'not a domain name',
};

export function ProofBadge({ proven }: { proven: boolean }) {
  return <StatusBadge style={proofStyles[proven ? 'proven' : 'not-proven']} />;
}

/** What a status means, for the verdict's sentence. */
export function securityMeaning(status: SecurityStatus): string {
  return securityStyles[status].meaning;
}

/** Every badge of the Chain tab, for the Requirement levels popover. */
export const chainBadges: readonly BadgeMeaning[] = [
  ...badgeMeanings(securityStyles),
  ...badgeMeanings(dsStyles),
  ...badgeMeanings(signatureStyles),
  ...badgeMeanings(proofStyles),
];
