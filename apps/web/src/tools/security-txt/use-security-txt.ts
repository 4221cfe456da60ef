import type {
  SecurityTxtFetchBody,
  SecurityTxtFetchResultData,
  SecurityTxtGenerateBody,
  SecurityTxtGenerateResultData,
  SecurityTxtValidateBody,
  SecurityTxtValidationResultData,
} from '@rfckit/standards';
import { useMutation } from '@tanstack/react-query';

import { ApiError, NETWORK_ERROR_MESSAGE, api } from '../../lib/api.ts';

/** POST /v1/security-txt/generate: the server writes the file; the page shows and offers it. */
export function useGenerateSecurityTxt() {
  return useMutation({
    mutationFn: (body: SecurityTxtGenerateBody) =>
      api.post<SecurityTxtGenerateResultData>('/v1/security-txt/generate', body),
  });
}

/** POST /v1/security-txt/validate: checks (and with a key, verifies) the pasted file. */
export function useValidateSecurityTxt() {
  return useMutation({
    mutationFn: (body: SecurityTxtValidateBody) =>
      api.post<SecurityTxtValidationResultData>('/v1/security-txt/validate', body),
  });
}

/** POST /v1/security-txt/fetch: the server fetches the site's file and validates it with the HTTP checks. */
export function useFetchSecurityTxt() {
  return useMutation({
    mutationFn: (body: SecurityTxtFetchBody) =>
      api.post<SecurityTxtFetchResultData>('/v1/security-txt/fetch', body),
  });
}

/**
 * The spec's error texts (part 2 §8): the server's error as it is, 'Error: ' and the message when
 * the request never got an answer, otherwise the tool's fallback.
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === 'NETWORK_ERROR') return `Error: ${error.message || NETWORK_ERROR_MESSAGE}`;
    // an answer that was not our envelope carries no message worth showing
    return error.code === 'BAD_RESPONSE' ? fallback : error.message;
  }
  return error instanceof Error && error.message ? `Error: ${error.message}` : fallback;
}
