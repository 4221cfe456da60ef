import type { DnskeyValidateBody, DnskeyValidationResultData } from '@rfckit/standards';
import { useMutation } from '@tanstack/react-query';

import { api } from '../../lib/api.ts';

/** POST /v1/dnskey/validate: the server parses and checks the record; the page only shows the verdict. */
export function useValidateDnskey() {
  return useMutation({
    mutationFn: (body: DnskeyValidateBody) =>
      api.post<DnskeyValidationResultData>('/v1/dnskey/validate', body),
  });
}
