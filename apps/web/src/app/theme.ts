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

// Text of light-variant badges and alerts on their tinted backgrounds: Mantine's shade 6 falls
// under 4.5:1 for most colours in the light scheme, so darker tones of the same hue.
const lightVariantText: Record<string, string> = {
  red: '#a51d1d',
  orange: '#9a3908',
  yellow: '#704b00',
  lime: '#436100',
  green: '#1a682c',
  teal: '#0a675a',
  cyan: '#0a5e70',
  blue: '#1a56a0',
  indigo: '#3b44b0',
  violet: '#5b37b0',
  grape: '#7f2a92',
  pink: '#9c1f5b',
  gray: '#444b52',
};

/** Mantine's default dimmed and error colours fall under 4.5:1 on the body colour; use stronger shades. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.entries(lightVariantText).map(([colour, text]) => [
        `--mantine-color-${colour}-light-color`,
        text,
      ]),
    ),
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
