// Keys, records and messages the DKIM and ARC suites share.
import type { KeyObject } from 'node:crypto';
import { Resolver as NodeResolver } from 'node:dns/promises';
import { arc, dkimVerify } from 'mailauth';

/** A public key's SubjectPublicKeyInfo in base64, as an RSA key record's p= carries it. */
export function spkiBase64(publicKey: KeyObject): string {
  return publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
}

/**
 * The key record of `publicKey`: RSA keys as their SubjectPublicKeyInfo, Ed25519 keys as their 32
 * raw bytes, the end of the SubjectPublicKeyInfo (RFC 8463 §4.2).
 */
export function dkimKeyRecord(publicKey: KeyObject): string {
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  return publicKey.asymmetricKeyType === 'ed25519'
    ? `v=DKIM1; k=ed25519; p=${spki.subarray(-32).toString('base64')}`
    : `v=DKIM1; k=rsa; p=${spki.toString('base64')}`;
}

const rfc8463RsaKey =
  'MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDkHlOQoBTzWRiGs5V6NpP3idY6Wk08a5qhdR6wy5bdOKb2jLQiY/J16JYi0Qvx/byYzCNb3W91y3FutACDfzwQ/BC/e/8uBsCR+yz1Lxj+PL6lHvqMKrM3rG4hstT5QjvHO9PzoxZyVYLzBfO2EeC3Ip3G+2kryOTIKT+l/K4w3QIDAQAB';
const rfc8463Signatures = [
  [
    'DKIM-Signature: v=1; a=ed25519-sha256; c=relaxed/relaxed;',
    ' d=football.example.com; i=@football.example.com;',
    ' q=dns/txt; s=brisbane; t=1528637909; h=from : to :',
    ' subject : date : message-id : from : subject : date;',
    ' bh=2jUSOH9NhtVGCQWNr9BrIAPreKQjO6Sn7XIkfJVOzv8=;',
    ' b=/gCrinpcQOoIfuHNQIbq4pgh9kyIK3AQUdt9OdqQehSwhEIug4D11Bus',
    ' Fa3bT3FY5OsU7ZbnKELq+eXdp1Q1Dw==',
  ].join('\r\n'),
  [
    'DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;',
    ' d=football.example.com; i=@football.example.com;',
    ' q=dns/txt; s=test; t=1528637909; h=from : to : subject :',
    ' date : message-id : from : subject : date;',
    ' bh=2jUSOH9NhtVGCQWNr9BrIAPreKQjO6Sn7XIkfJVOzv8=;',
    ' b=F45dVWDfMbQDGHJFlXUNB2HKfbCeLRyhDXgFpEL8GwpsRe0IeIixNTe3',
    ' DhCVlUrSjV4BwcVcOF6+FF3Zo9Rpo1tFOeS9mPYQTnGdaSGsgeefOsk2Jz',
    ' dA+L10TeYt9BgDfQNZtKdN1WO//KgIqXP7OdEFE4LjFYNcUxZQ4FADY+8=',
  ].join('\r\n'),
];
const rfc8463Unsigned = [
  'From: Joe SixPack <joe@football.example.com>',
  'To: Suzie Q <suzie@shopping.example.net>',
  'Subject: Is dinner ready?',
  'Date: Fri, 11 Jul 2003 21:00:37 -0700 (PDT)',
  'Message-ID: <20030712040037.46341.5F8J@football.example.com>',
  '',
  'Hi.',
  '',
  'We lost the game.  Are you hungry yet?',
  '',
  'Joe.',
  '',
].join('\r\n');

/** RFC 8463 Appendix A: the example keys (A.2) and the message they sign (A.3). */
export const rfc8463 = {
  /** The RSA key of selector `test`, as p= carries it. */
  rsaKey: rfc8463RsaKey,
  /** The key record of selector `brisbane` (Ed25519). */
  brisbaneRecord: 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=',
  /** The key record of selector `test` (RSA). */
  testRecord: `v=DKIM1; k=rsa; p=${rfc8463RsaKey}`,
  /** The two DKIM-Signature fields, Ed25519 first. */
  signatures: rfc8463Signatures,
  /** The message without its signatures. */
  unsigned: rfc8463Unsigned,
  /** The signed message: both signatures pass with the A.2 keys. */
  signed: `${rfc8463Signatures.join('\r\n')}\r\n${rfc8463Unsigned}`,
} as const;

/** mailauth's ARC verification on its own, with keys from the lab server through node:dns. */
export async function mailauthArcVerify(sealed: string, dnsAddress: string) {
  const resolver = new NodeResolver();
  resolver.setServers([dnsAddress]);
  const lookup = async (name: string, type: string) => {
    if (type !== 'TXT') throw Object.assign(new Error('not looked up'), { code: 'ENOTIMP' });
    return resolver.resolveTxt(name);
  };
  const verified = await dkimVerify(Buffer.from(sealed), { resolver: lookup });
  return arc(verified.arc as Parameters<typeof arc>[0], { resolver: lookup, strict: true });
}
