import { dkimOperations } from '@rfckit/standards';

import { CtrlEnterHint, PasteValidator } from '../../components/paste-validator.tsx';
import { ValidationResultView } from './validation-result.tsx';

/** Record mode: validates a pasted key record (the spec's 'record' validator mode). */
export function RecordValidator() {
  return (
    <PasteValidator
      operation={dkimOperations.validate}
      field="record"
      formLabel="Validate a DKIM record"
      label="DKIM record"
      description={
        <>
          The TXT value of selector._domainkey.domain, its quoted strings, or a whole zone-file line; strings
          are joined as verifiers join them.
          <CtrlEnterHint />
        </>
      }
      placeholder="v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA…"
      fallbackError="DKIM record is required"
      panel={{
        pending: 'Validating the record…',
        empty: 'Paste a DKIM key record and choose Validate to see its tags, key and findings here.',
        errorMessage: (error) => `Validation failed: ${error.message}`,
        success: (data) => ({
          title:
            data.parsed?.status === 'revoked'
              ? 'Revoked DKIM key'
              : data.valid
                ? 'Valid DKIM key record'
                : 'Invalid DKIM key record',
          tone: data.valid ? 'positive' : 'negative',
          children: <ValidationResultView result={data} />,
        }),
      }}
    />
  );
}
