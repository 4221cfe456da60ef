import type { HttpHeadersAnalysis, HttpHeadersAnalyzeBody, HttpHeadersValidateBody } from '@rfckit/standards';
import { useMutation } from '@tanstack/react-query';

import { api } from '../../lib/api.ts';

/** POST /v1/http-headers/analyze: the server fetches the site through its guarded client and grades it. */
export function useAnalyzeHeaders() {
  return useMutation({
    mutationFn: (body: HttpHeadersAnalyzeBody) =>
      api.post<HttpHeadersAnalysis>('/v1/http-headers/analyze', body),
  });
}

/** POST /v1/http-headers/validate: grades pasted headers; nothing is fetched. */
export function useValidateHeaders() {
  return useMutation({
    mutationFn: (body: HttpHeadersValidateBody) =>
      api.post<HttpHeadersAnalysis>('/v1/http-headers/validate', body),
  });
}
