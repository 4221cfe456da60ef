import { SegmentedControl, Stack } from '@mantine/core';
import { useState } from 'react';

import { DnsValidator } from './dns-validator.tsx';
import { RecordValidator } from './record-validator.tsx';

type Mode = 'record' | 'dns';

// the spec's validator modes: 'record' (paste) and 'dns' (fetch)
const modes: { value: Mode; label: string }[] = [
  { value: 'record', label: 'Paste a record' },
  { value: 'dns', label: 'Look up in DNS' },
];

/** The Validator tab: record mode checks a pasted key record, DNS mode fetches the published one. */
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
      {mode === 'record' ? <RecordValidator /> : <DnsValidator />}
    </Stack>
  );
}
