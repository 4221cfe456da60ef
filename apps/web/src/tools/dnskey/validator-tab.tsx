import { dnskeyOperations } from '@rfckit/standards';

import { CtrlEnterHint, PasteValidator } from '../../components/paste-validator.tsx';
import { ValidationResultView } from './validation-result.tsx';

export function ValidatorTab() {
  return (
    <PasteValidator
      operation={dnskeyOperations.validate}
      field="record"
      label="DNSKEY record"
      description={
        <>
          A zone-file line as dig or your DNS provider shows it, or just the four fields: flags, protocol,
          algorithm, public key. Include the owner name to get DS records.
          <CtrlEnterHint />
        </>
      }
      placeholder="example.com. 3600 IN DNSKEY 257 3 13 <base64 public key>"
      fallbackError="DNSKEY record is required"
      panel={{
        pending: 'Validating the record…',
        empty: 'Paste a DNSKEY record and choose Validate to see its fields, key tag and DS records here.',
        success: (data) => ({
          title: data.valid ? 'Valid DNSKEY record' : 'Invalid DNSKEY record',
          tone: data.valid ? 'positive' : 'negative',
          children: <ValidationResultView result={data} />,
        }),
      }}
    />
  );
}
