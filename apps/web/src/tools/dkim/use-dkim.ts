import type {
  DkimGenerateBody,
  DkimGenerateResultData,
  DkimValidateBody,
  DkimValidationResultData,
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
