import type { DmarcValidateBody, DmarcValidationResultData } from '@rfckit/standards';
import { useMutation } from '@tanstack/react-query';

import { ApiError, NETWORK_ERROR_MESSAGE, api } from '../../lib/api.ts';

/** POST /v1/dmarc/validate: a record, a domain (discovered through the server's DNS), or both. */
export function useValidateDmarc() {
  return useMutation({
    mutationFn: (body: DmarcValidateBody) => api.post<DmarcValidationResultData>('/v1/dmarc/validate', body),
  });
}

/** The server's message as it is, 'Error: ' and the message when no answer came, else the fallback. */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === 'NETWORK_ERROR') return `Error: ${error.message || NETWORK_ERROR_MESSAGE}`;
    return error.code === 'BAD_RESPONSE' ? fallback : error.message;
  }
  return error instanceof Error && error.message ? `Error: ${error.message}` : fallback;
}
