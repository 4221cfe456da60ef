import { createTheme, type CSSVariablesResolver } from '@mantine/core';

const fontStack =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif';
const monoStack =
  'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace';

export const theme = createTheme({
  primaryColor: 'indigo',
  // indigo 7 (light) and 8 (dark) keep white button text above 4.5:1
  primaryShade: { light: 7, dark: 8 },
  fontFamily: fontStack,
  fontFamilyMonospace: monoStack,
  headings: { fontFamily: fontStack, fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
});

/** Mantine's default dimmed and error colours fall under 4.5:1 on the body colour; use stronger shades. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
