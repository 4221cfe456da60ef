export {
  fieldAcronym,
  TLSA_PRIVATE_USE,
  tlsaDefaults,
  tlsaDigestOctets,
  tlsaMatchingTypes,
  tlsaOwnerName,
  tlsaParametersLine,
  tlsaParametersText,
  tlsaProtocols,
  tlsaSelectors,
  tlsaUsages,
  type TlsaFieldValue,
  type TlsaProtocol,
} from './fields.ts';
export { generateTlsa, tlsaRolloverAdvice, type TlsaGenerateInput } from './generate.ts';
export { associationData, endEntityUsages, matchTlsa, type TlsaChainMatch } from './match.ts';
export { parseTlsa, type TlsaOwner, type TlsaParseResult, type TlsaPresentation } from './parse.ts';
export * from './schema.ts';
export { presentTlsa, validateTlsa, validateTlsaWithChain } from './validate.ts';
export { daneOperations } from './operations.ts';
export {
  certificateNameMatches,
  evaluateDaneEndpoint,
  summariseDaneCheck,
  type DaneEndpointInput,
  type DaneLookup,
  type DaneMxInput,
  type DaneTlsOutcome,
  type PresentedCertificate,
} from './check.ts';
