import { Badge } from '@mantine/core';
import type { CipherValidation } from '@rfckit/standards';

type Level = CipherValidation['level'];

// Mantine's orange 9 leaves white text under 4.5:1; this orange keeps it above 6:1
export const weakOrange = '#a34700';

// filled colours whose text keeps at least 4.5:1 in light and dark themes
const levelStyles: Record<Level, { colour: string; text: string; meaning: string }> = {
  HIGH: { colour: '#1b6b2e', text: 'white', meaning: 'strong: keep it' },
  MEDIUM: { colour: 'yellow.4', text: 'black', meaning: 'acceptable for compatibility' },
  LOW: { colour: weakOrange, text: 'white', meaning: 'weak: remove unless old clients need it' },
  INSECURE: { colour: 'red.9', text: 'white', meaning: 'broken: remove it' },
  'N/A': { colour: 'blue.8', text: 'white', meaning: 'a signalling value, not a cipher suite' },
  UNKNOWN: { colour: 'gray.7', text: 'white', meaning: 'not in the IANA registry' },
};

/** A suite's security level (spec part 2 §3), with its meaning for screen readers. */
export function LevelBadge({ level }: { level: Level }) {
  const style = levelStyles[level];
  return (
    <Badge
      variant="filled"
      radius="sm"
      color={style.colour}
      c={style.text}
      title={style.meaning}
      aria-label={`Security level ${level}: ${style.meaning}`}
      data-level={level}
      // a table column squeezes a badge to its ellipsis ("MEDI…") unless it keeps its text's width
      miw="max-content"
    >
      {level}
    </Badge>
  );
}
