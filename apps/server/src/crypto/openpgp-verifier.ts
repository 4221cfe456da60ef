import type { OpenPgpVerification, OpenPgpVerifier } from '@rfckit/standards';
import { readCleartextMessage, readKeys, verify, type Key } from 'openpgp';

const WILDCARD_KEY_ID = '0000000000000000';
const KEY_BLOCK = /-----BEGIN PGP (PUBLIC|PRIVATE) KEY BLOCK-----[\s\S]*?-----END PGP \1 KEY BLOCK-----/g;

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * OpenPGP.js behind the standards package's `OpenPgpVerifier`: verifies a cleartext-signed message
 * (RFC 9580 §7) with the armoured public key(s) a user supplied. A signature counts as made by a
 * supplied key when its issuer key ID is one of that key's (primary or subkey); then it is good or
 * bad, otherwise the file was signed by a different key.
 */
export const openPgpVerifier: OpenPgpVerifier = {
  async verifyCleartext(message: string, armoredPublicKeys: string): Promise<OpenPgpVerification> {
    const keys: Key[] = [];
    // readKeys reads one armoured block; people paste several (a key per signer) one after another
    const blocks = armoredPublicKeys.match(KEY_BLOCK) ?? [armoredPublicKeys];
    try {
      for (const block of blocks) {
        // a pasted private key still verifies: only its public part is used
        for (const key of await readKeys({ armoredKeys: block }))
          keys.push(key.isPrivate() ? key.toPublic() : key);
      }
    } catch (error) {
      return { status: 'key-invalid', reason: reason(error) };
    }
    let cleartext;
    try {
      cleartext = await readCleartextMessage({ cleartextMessage: message });
    } catch (error) {
      return { status: 'unreadable', reason: reason(error) };
    }
    const keyOf = new Map<string, Key>();
    for (const key of keys) {
      for (const id of key.getKeyIDs()) keyOf.set(id.toHex().toUpperCase(), key);
    }
    const result = await verify({ message: cleartext, verificationKeys: keys, expectSigned: false });
    let bad: OpenPgpVerification | null = null;
    const signerKeyIds: string[] = [];
    for (const signature of result.signatures) {
      const keyId = signature.keyID.toHex().toUpperCase();
      signerKeyIds.push(keyId);
      const key = keyOf.get(keyId);
      // a wildcard issuer names no key: only trying the supplied ones tells
      if (!key && keyId !== WILDCARD_KEY_ID) {
        // settled but unused: its rejection ("could not find signing key") is expected
        signature.verified.catch(() => undefined);
        continue;
      }
      try {
        await signature.verified;
        const packet = (await signature.signature).packets[0];
        const signer = key ?? keys[0]!;
        return {
          status: 'good',
          keyId,
          fingerprint: signer.getFingerprint().toUpperCase(),
          created: packet?.created ? packet.created.toISOString() : null,
          userIds: signer.getUserIDs(),
        };
      } catch (error) {
        if (key) bad ??= { status: 'bad', keyId, reason: reason(error) };
      }
    }
    return (
      bad ?? {
        status: 'wrong-key',
        signerKeyIds: signerKeyIds.filter((id) => id !== WILDCARD_KEY_ID),
        suppliedKeyIds: [...new Set(keys.map((key) => key.getKeyID().toHex().toUpperCase()))],
      }
    );
  },
};
