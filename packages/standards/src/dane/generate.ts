import type { CryptoProvider } from '../core/crypto.ts';
import type { Outcome } from '../core/outcome.ts';
import { toHex } from '../core/hex.ts';
import {
  fieldAcronym,
  isPkixUsage,
  isSmtpRelay,
  tlsaDefaults,
  tlsaMatchingTypes,
  tlsaOwnerName,
  tlsaParametersText,
  tlsaSelectors,
  tlsaUsages,
  type TlsaProtocol,
} from './fields.ts';
import { associationData, endEntityUsages } from './match.ts';
import { certificateView, parsePemChain } from '../core/pem.ts';
import type { TlsaGenerated, TlsaGeneration } from './schema.ts';
import { presentTlsa } from './validate.ts';

export interface TlsaGenerateInput {
  chain: string;
  host: string;
  port?: number | undefined;
  protocol?: TlsaProtocol | undefined;
  usage?: number | undefined;
  selector?: number | undefined;
  matchingType?: number | undefined;
  /** Chain position (1 = the leaf's issuer) of the CA for usages 0 and 2. */
  anchor?: number | undefined;
}

/** RFC 7671 §8: how to change keys or certificates without a window where no record matches. */
export const tlsaRolloverAdvice: readonly string[] = [
  'Publish the record of the next key beside the current one first; switch the server to the new key only after at least two TTLs of the TLSA records, then remove the old record (RFC 7671 §8.1).',
  'Publish "3 1 1" for the server key together with "2 1 1" for the CA that issues it: a renewal by the same CA keeps matching through the 2 1 1 record while you update the 3 1 1 record (RFC 7671 §8).',
  'Selector 1 (SPKI) survives renewals that keep the key (e.g. certbot --reuse-key); selector 0 changes with every certificate, so the record must be updated before each new certificate is deployed (RFC 7671 §5.1).',
  'Never change the key and the TLSA parameters (usage, selector, matching type) in one step: change one, wait for the TTLs, then the other (RFC 7671 §8.3).',
];

/** Why usages 0 and 1 do nothing on port 25 (RFC 7672 §3.1.3): SMTP between MTAs has no common set of public CAs. */
export const smtpUnusableText = 'Unusable for SMTP (RFC 7672 §3.1.3)';

/**
 * Builds the TLSA records of a certificate chain (leaf first) for every usage, selector and matching
 * type (RFC 6698 §2.1): usages 1 and 3 from the server certificate, 0 and 2 from the chosen CA. The
 * chosen parameters (3 1 1 unless asked otherwise, RFC 7671 §5.1) give the zone-file lines.
 */
export async function generateTlsa(
  input: TlsaGenerateInput,
  crypto: CryptoProvider,
): Promise<Outcome<TlsaGeneration>> {
  const chain = parsePemChain(input.chain);
  if (!chain.ok) return chain;
  const port = input.port ?? tlsaDefaults.port;
  const protocol = input.protocol ?? 'tcp';
  const usage = input.usage ?? tlsaDefaults.usage;
  const selector = input.selector ?? tlsaDefaults.selector;
  const matchingType = input.matchingType ?? tlsaDefaults.matchingType;
  const certificates = chain.result.map(certificateView);
  const anchor = chain.result.length > 1 ? (input.anchor ?? 1) : null;
  if (input.anchor !== undefined && (input.anchor < 1 || input.anchor >= chain.result.length))
    return {
      ok: false,
      error:
        chain.result.length > 1
          ? `The CA for usages 0 and 2 must be certificate 2 to ${chain.result.length} of the chain; certificate ${input.anchor + 1} does not exist`
          : 'The pasted chain holds only the server certificate: paste its CA certificate after it for usages 0 and 2',
    };
  if (anchor === null && !endEntityUsages.has(usage))
    return {
      ok: false,
      error: `Usage ${usage} (${tlsaUsages[usage]?.acronym ?? ''}) names a CA certificate, and the pasted chain holds only the server certificate: paste the chain with its CA certificate, or choose usage 3`,
    };
  const owner = tlsaOwnerName(input.host, port, protocol);
  const smtpRelay = isSmtpRelay(port, protocol);
  const records: TlsaGenerated[] = [];
  for (const { value: u } of tlsaUsages) {
    const index = endEntityUsages.has(u) ? 0 : anchor;
    if (index === null) continue;
    const certificate = chain.result[index];
    if (certificate === undefined) continue;
    for (const { value: s } of tlsaSelectors)
      for (const { value: m } of tlsaMatchingTypes) {
        const data = await associationData(certificate, s, m, crypto);
        if (data === undefined) continue;
        records.push({
          usage: u,
          selector: s,
          matchingType: m,
          parameters: tlsaParametersText(u, s, m),
          certificateIndex: index,
          data: toHex(data),
          record: presentTlsa({ owner, usage: u, selector: s, matchingType: m, data }),
          recommended: u === 3 && s === 1 && m === 1,
          selected: u === usage && s === selector && m === matchingType,
          unusable: smtpRelay && isPkixUsage(u) ? smtpUnusableText : null,
        });
      }
  }
  const selected = records.find((record) => record.selected);
  if (selected === undefined)
    return { ok: false, error: 'No record has the chosen usage, selector and matching type' };
  const companion =
    selected.usage === 3
      ? records.find(
          (record) =>
            record.usage === 2 && record.selector === 1 && record.matchingType === selected.matchingType,
        )
      : undefined;
  const zoneFile = [
    `; ${selected.parameters} for ${certificates[selected.certificateIndex]?.subject ?? 'the server certificate'}`,
    selected.record,
    ...(companion === undefined
      ? []
      : [
          `; ${companion.parameters} for the issuing CA ${certificates[companion.certificateIndex]?.subject ?? ''}: keeps matching through a renewal by the same CA (RFC 7671 §8)`,
          companion.record,
        ]),
  ].join('\n');
  return {
    ok: true,
    result: {
      owner,
      certificates,
      anchor,
      records,
      selected,
      zoneFile,
      rollover: [...tlsaRolloverAdvice],
      ...(selected.unusable === null
        ? {}
        : {
            warning: `Usage ${selected.usage} (${fieldAcronym(tlsaUsages, selected.usage)}) is unusable for SMTP between mail servers on port 25: sending servers ignore the record, so it protects no mail (RFC 7672 §3.1.3). Publish 3 1 1 for the server key instead, with 2 1 1 for its issuing CA so that a renewal by the same CA keeps matching.`,
          }),
      ...(anchor === null
        ? {
            note: 'The chain holds only the server certificate, so usages 0 and 2 (which name a CA) are left out: paste the CA certificates after it to get them.',
          }
        : {}),
    },
  };
}
