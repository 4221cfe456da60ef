import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';

import { MoonIcon, SunIcon } from '../../components/icons.tsx';

/** Switches between light and dark; Mantine persists the choice under `rfckit.theme`. */
export function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => setColorScheme(next)}
    >
      {computed === 'dark' ? <SunIcon /> : <MoonIcon />}
    </ActionIcon>
  );
}
