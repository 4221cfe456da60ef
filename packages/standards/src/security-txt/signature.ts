import type { Diagnostic } from '../core/diagnostic.ts';
import type { CleartextSignature } from './parse.ts';

/** The outcome of checking a cleartext signature against the keys a user supplied. */
export type OpenPgpVerification =
  /** A signature verifies with one of the supplied keys. */
  | { status: 'good'; keyId: string; fingerprint: string; created: string | null; userIds: string[] }
  /** The signature names a supplied key but does not verify: the text changed after signing, or the key was not valid then. */
  | { status: 'bad'; keyId: string; reason: string }
  /** None of the supplied keys made the signature. */
  | { status: 'wrong-key'; signerKeyIds: string[]; suppliedKeyIds: string[] }
  /** The supplied text is not an OpenPGP public key. */
  | { status: 'key-invalid'; reason: string }
  /** The verifier could not read the signed message. */
  | { status: 'unreadable'; reason: string };

/**
 * Checks an OpenPGP cleartext-signed message (RFC 9580 §7) with armoured public keys. Passed in,
 * as DNS and crypto are (docs/architecture.md §1): the server implements it with OpenPGP.js, and this package
 * stays free of any OpenPGP implementation.
 */
export interface OpenPgpVerifier {
  verifyCleartext(message: string, armoredPublicKeys: string): Promise<OpenPgpVerification>;
}

const RFC = 'RFC 9116 §2.3';

/** Diagnostics for a signed file: verified, failed, or why it could not be checked. */
export async function signatureDiagnostics(
  signature: CleartextSignature,
  publicKey: string | undefined,
  verifier: OpenPgpVerifier | undefined,
): Promise<{ diagnostics: Diagnostic[]; verification: OpenPgpVerification | null }> {
  const at = { line: signature.signatureLine ?? signature.headerLine };
  const signers = [...new Set(signature.signatures.map((s) => s.keyId).filter((id) => id !== null))];
  const signedBy = signers.length > 0 ? ` It names key ID ${signers.join(', ')} as the signer.` : '';
  if (signature.message === null) return { diagnostics: [], verification: null };
  if (!publicKey?.trim() || !verifier) {
    return {
      verification: null,
      diagnostics: [
        {
          severity: 'info',
          code: 'signature_not_verified',
          message: publicKey?.trim()
            ? `The signature was not verified: no OpenPGP verifier is available here.${signedBy}`
            : `The signature was not verified: supply the signer's public key to check it.${signedBy}`,
          rfc: RFC,
          fix: "Paste the organisation's public key (the one its Encryption field or website publishes) to verify the signature.",
          ...at,
        },
      ],
    };
  }
  const verification = await verifier.verifyCleartext(signature.message, publicKey);
  switch (verification.status) {
    case 'good':
      return {
        verification,
        diagnostics: [
          {
            severity: 'info',
            code: 'signature_good',
            message: `Good signature from key ${verification.fingerprint}${verification.userIds.length ? ` (${verification.userIds.join(', ')})` : ''}${verification.created ? `, made ${verification.created}` : ''}`,
            rfc: RFC,
            ...at,
          },
        ],
      };
    case 'bad':
      return {
        verification,
        diagnostics: [
          {
            severity: 'error',
            code: 'signature_bad',
            message: `Bad signature: the signature by key ${verification.keyId} does not verify (${verification.reason})`,
            rfc: RFC,
            fix: 'If the file was edited after signing, sign the current file again with gpg --clearsign and publish the output unchanged; otherwise do not trust it.',
            ...at,
          },
        ],
      };
    case 'wrong-key':
      return {
        verification,
        diagnostics: [
          {
            severity: 'error',
            code: 'signature_wrong_key',
            message: `The signature was made by key ID ${verification.signerKeyIds.join(', ') || 'unknown'}, not by the key supplied (key IDs ${verification.suppliedKeyIds.join(', ')})`,
            rfc: RFC,
            fix: "Check that you supplied the organisation's current key; if it is, the file was signed by someone else and must not be trusted.",
            ...at,
          },
        ],
      };
    case 'key-invalid':
      return {
        verification,
        diagnostics: [
          {
            severity: 'warning',
            code: 'public_key_invalid',
            message: `The signature was not verified: the public key supplied could not be read (${verification.reason})`,
            rfc: 'RFC 9580 §6.2',
            fix: 'Paste the whole armoured key, from -----BEGIN PGP PUBLIC KEY BLOCK----- to -----END PGP PUBLIC KEY BLOCK-----.',
          },
        ],
      };
    case 'unreadable':
      return {
        verification,
        diagnostics: [
          {
            severity: 'error',
            code: 'pgp_error',
            message: `The signed message could not be read for verification: ${verification.reason}`,
            requirement: 'MUST',
            rfc: 'RFC 9580 §7',
            fix: 'Sign the file again with gpg --clearsign and publish the output unchanged.',
            ...at,
          },
        ],
      };
  }
}
