import type {
  DkimDnsBody,
  DkimDnsResultData,
  DkimGenerateBody,
  DkimGenerateResultData,
  DkimSelectorDiscoveryData,
  DkimSelectorsBody,
  DkimValidateBody,
  DkimValidationResultData,
  DkimVerifyMessageBody,
  DkimVerifyMessageResult,
} from '@rfckit/standards';
import { useMutation } from '@tanstack/react-query';

import { api } from '../../lib/api.ts';

/** POST /v1/dkim/generate: the record for a public key; the private key never leaves the browser. */
export function useGenerateDkim() {
  return useMutation({
    mutationFn: (body: DkimGenerateBody) => api.post<DkimGenerateResultData>('/v1/dkim/generate', body),
  });
}

/** POST /v1/dkim/validate: checks a pasted key record. */
export function useValidateDkim() {
  return useMutation({
    mutationFn: (body: DkimValidateBody) => api.post<DkimValidationResultData>('/v1/dkim/validate', body),
  });
}

/** POST /v1/dkim/dns: looks up selector._domainkey.domain and validates what is published. */
export function useDkimDns() {
  return useMutation({
    mutationFn: (body: DkimDnsBody) => api.post<DkimDnsResultData>('/v1/dkim/dns', body),
  });
}

/** POST /v1/dkim/selectors: probes the common selectors of a domain. */
export function useDkimSelectors() {
  return useMutation({
    mutationFn: (body: DkimSelectorsBody) => api.post<DkimSelectorDiscoveryData>('/v1/dkim/selectors', body),
  });
}

/** POST /v1/dkim/verify-message: verifies every DKIM-Signature of a pasted message. */
export function useVerifyDkimMessage() {
  return useMutation({
    mutationFn: (body: DkimVerifyMessageBody) =>
      api.post<DkimVerifyMessageResult>('/v1/dkim/verify-message', body),
  });
}
