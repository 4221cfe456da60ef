/**
 * A cleartext signature from sectxt's test suite (DigitalTrustCenter/sectxt, test/test_sectxt.py):
 * a version 4 RSA/SHA-256 signature made on 2023-07-31T08:32:44Z by key ID 3B3880F3281B5D1D, whose
 * private key is not public. Decoded by hand: c2 9c | 04 01 01 08 | 0010 | 05 02 64c771ac | 09 10
 * 3b3880f3281b5d1d | 0000 | 8de7 | RSA value.
 */
export const sectxtSignatureBlock = [
  '-----BEGIN PGP SIGNATURE-----',
  'Version: GnuPG v2.2',
  '',
  'wpwEAQEIABAFAmTHcawJEDs4gPMoG10dAACN5wP/UozhFqHcUWRNhg4KwfY4',
  'HHXU8bf222naeYJHgaHadLTJJ8YQIQ9N5fYF7K4BM0jPZc48aaUPaBdhNxw+',
  'KDtQJWPzVREIbbGLRQ5WNYrLR6/7v1LHTI8RvgY22QZD9EAkFQwgdG8paIP4',
  '2APWewNf8e01t1oh4n5bDBtr4IaQoj0=',
  '=DHXw',
  '-----END PGP SIGNATURE-----',
];

/** A signed security.txt around {@link sectxtSignatureBlock}; `expires` fills the Expires field. */
export function signedFile(expires: string, body: string[] = []): string {
  return [
    '-----BEGIN PGP SIGNED MESSAGE-----',
    'Hash: SHA256',
    '',
    'Canonical: https://example.com/.well-known/security.txt',
    'Contact: mailto:security@example.com',
    'Encryption: https://example.com/pgp-key.txt',
    ...body,
    `Expires: ${expires}`,
    ...sectxtSignatureBlock,
    '',
  ].join('\n');
}
