import type {
  ArcGenerateBodyInput,
  ArcGenerateResult,
  ArcValidateBody,
  ArcValidateResult,
} from '@rfckit/standards';
import { useMutation } from '@tanstack/react-query';

import { api } from '../../lib/api.ts';

/** POST /v1/arc/validate: checks the chain of the pasted ARC header fields or message, keys from DNS. */
export function useValidateArc() {
  return useMutation({
    mutationFn: (body: ArcValidateBody) => api.post<ArcValidateResult>('/v1/arc/validate', body),
  });
}

/** POST /v1/arc/generate: seals a message; a given private key is used for this call and not kept. */
export function useSealArc() {
  return useMutation({
    mutationFn: (body: ArcGenerateBodyInput) => api.post<ArcGenerateResult>('/v1/arc/generate', body),
  });
}
