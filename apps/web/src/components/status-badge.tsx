import { Badge } from '@mantine/core';

import type { BadgeMeaning } from './rfc-legend.tsx';

/** A filled green for pass badges: Mantine's green 9 gives white text only 4.4:1, this the theme's darker green 4.5:1 and more. */
export const passGreen = '#1a682c';

/** A filled badge's word, colours (4.5:1 in both themes) and what it means, for the badge legend. */
export interface StatusStyle {
  text: string;
  colour: string;
  textColour: string;
  meaning: string;
}

/** A status said in words, never by colour alone; `label` names what it is the status of for screen readers. */
export function StatusBadge({ style, label }: { style: StatusStyle; label?: string | undefined }) {
  return (
    <Badge
      component="span"
      color={style.colour}
      c={style.textColour}
      variant="filled"
      radius="sm"
      size="sm"
      tt="none"
      title={style.meaning}
      aria-label={label === undefined ? undefined : `${label}: ${style.text}`}
      style={{ flexShrink: 0 }}
    >
      {style.text}
    </Badge>
  );
}

/** The legend entries of a set of styles (ToolPage's `resultBadges`). */
export function badgeMeanings(styles: Readonly<Record<string, StatusStyle>>): BadgeMeaning[] {
  return Object.values(styles).map((style) => ({
    label: style.text,
    meaning: style.meaning,
    color: style.colour,
    textColor: style.textColour,
  }));
}
