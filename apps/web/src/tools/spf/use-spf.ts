import type { SpfCheckBody, SpfCheckResultData, SpfVerifyBody, SpfVerifyResultData } from '@rfckit/standards';
import { useMutation } from '@tanstack/react-query';

import { ApiError, NETWORK_ERROR_MESSAGE, UNEXPECTED_ERROR_MESSAGE, api } from '../../lib/api.ts';

/** POST /v1/spf/check: check_host() on the server, against live DNS. */
export function useCheckSpf() {
  return useMutation({
    mutationFn: (body: SpfCheckBody) => api.post<SpfCheckResultData>('/v1/spf/check', body),
  });
}

/**
 * Spec part 1 §8: the server's message when it gave one, else the tool's fallback ('Failed to verify
 * SPF record'); 'Error: ' and the message when no answer came.
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === 'NETWORK_ERROR') return `Error: ${error.message || NETWORK_ERROR_MESSAGE}`;
    return error.code === 'BAD_RESPONSE' || error.message === UNEXPECTED_ERROR_MESSAGE
      ? fallback
      : error.message;
  }
  return error instanceof Error && error.message ? `Error: ${error.message}` : fallback;
}

/** POST /v1/spf/verify: the record of a domain (or a pasted one) and its whole include tree. */
export function useVerifySpf() {
  return useMutation({
    mutationFn: (body: SpfVerifyBody) => api.post<SpfVerifyResultData>('/v1/spf/verify', body),
  });
}
