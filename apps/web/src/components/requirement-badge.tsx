import { Badge, Tooltip } from '@mantine/core';
import { useId } from 'react';

import { requirementStyles, type Requirement, type RequirementSynonym } from './requirement-levels.ts';

interface RequirementBadgeProps {
  level: Requirement;
  /** The word as the source prints it when it differs, e.g. RECOMMENDED for SHOULD (RFC 2119 §3). */
  text?: RequirementSynonym | undefined;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}

/** A requirement-level badge whose explanation shows on hover or keyboard focus and is read by screen readers. */
export function RequirementBadge({ level, text, size = 'sm' }: RequirementBadgeProps) {
  const style = requirementStyles[level];
  const descriptionId = useId();
  return (
    <>
      <Tooltip
        label={style.explanation}
        multiline
        w={320}
        withArrow
        events={{ hover: true, focus: true, touch: true }}
      >
        <Badge
          component="span"
          tabIndex={0}
          size={size}
          radius="sm"
          variant="filled"
          color={style.background}
          c={style.text}
          aria-describedby={descriptionId}
          data-requirement={level}
          styles={{ root: { cursor: 'help', flexShrink: 0 } }}
        >
          {text ?? level}
        </Badge>
      </Tooltip>
      {/* the description while the tooltip is closed; floating-ui points at the tooltip while open */}
      <span id={descriptionId} hidden>
        {text ? `${text} means ${level}. ` : ''}
        {style.explanation}
      </span>
    </>
  );
}
