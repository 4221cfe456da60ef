import { SegmentedControl, Stack } from '@mantine/core';
import { useState, type ReactNode } from 'react';

export interface Mode {
  value: string;
  label: string;
  panel: ReactNode;
}

/** A tab with several ways in (paste, look up, fetch): a segmented control over the chosen mode's panel. */
export function ModeSwitch({ label, modes }: { label: string; modes: readonly [Mode, ...Mode[]] }) {
  const [value, setValue] = useState(modes[0].value);
  const chosen = modes.find((mode) => mode.value === value) ?? modes[0];
  return (
    <Stack gap="lg">
      <SegmentedControl
        aria-label={label}
        data={modes.map((mode) => ({ value: mode.value, label: mode.label }))}
        value={value}
        onChange={setValue}
        // on a phone the labels wrap inside the control rather than push the page sideways
        style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
        styles={{ label: { whiteSpace: 'normal' } }}
      />
      {chosen.panel}
    </Stack>
  );
}
