import type { CryptoProvider } from '../core/crypto.ts';
import type { ChainCertificate } from '../core/pem.ts';

/** The usages that name the server certificate itself (PKIX-EE, DANE-EE); 0 and 2 name a CA of the chain. */
export const endEntityUsages: ReadonlySet<number> = new Set([1, 3]);

/**
 * The certificate association data of a certificate for a selector and matching type (RFC 6698
 * §2.1.2-2.1.3): the whole DER certificate or its SubjectPublicKeyInfo, as is, SHA-256 or SHA-512.
 * Undefined for unassigned values.
 */
export async function associationData(
  certificate: ChainCertificate,
  selector: number,
  matchingType: number,
  crypto: CryptoProvider,
): Promise<Uint8Array | undefined> {
  const selected =
    selector === 0 ? certificate.der : selector === 1 ? certificate.parts.subjectPublicKeyInfo : undefined;
  if (selected === undefined) return undefined;
  if (matchingType === 0) return selected;
  if (matchingType === 1) return crypto.digest('SHA-256', selected);
  if (matchingType === 2) return crypto.digest('SHA-512', selected);
  return undefined;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((octet, i) => octet === b[i]);
}

export interface TlsaChainMatch {
  /** Positions in the chain (0 = leaf) whose association data equals the record's. */
  matching: number[];
  /**
   * The position the record matches as its usage reads it (RFC 7671 §5): the leaf for usages 1 and 3,
   * a CA certificate above the leaf for 0 and 2; null when none does.
   */
  usable: number | null;
}

/** Which certificates of `chain` (leaf first) a TLSA record's parameters and data match. */
export async function matchTlsa(
  record: { usage: number; selector: number; matchingType: number; data: Uint8Array },
  chain: readonly ChainCertificate[],
  crypto: CryptoProvider,
): Promise<TlsaChainMatch> {
  const matching: number[] = [];
  for (const [index, certificate] of chain.entries()) {
    const data = await associationData(certificate, record.selector, record.matchingType, crypto);
    if (data !== undefined && equalBytes(data, record.data)) matching.push(index);
  }
  const fits = (index: number) =>
    endEntityUsages.has(record.usage) ? index === 0 : (record.usage === 0 || record.usage === 2) && index > 0;
  return { matching, usable: matching.find(fits) ?? null };
}
