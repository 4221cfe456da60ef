import { Badge, Tooltip } from '@mantine/core';
import { dmarcRemovedTagNotes, type DmarcRemovedTag } from '@rfckit/standards';
import { useId } from 'react';

import type { BadgeMeaning } from '../../components/rfc-legend.tsx';

const styles = {
  added: { label: 'RFC 9989', color: 'blue.8', text: 'white' },
  removed: { label: 'Removed in RFC 9989', color: 'grape.9', text: 'white' },
} as const;

/** The two badges' meanings, for the Requirement levels popover. */
export const specBadgeMeanings: readonly BadgeMeaning[] = [
  {
    label: styles.added.label,
    meaning: 'A tag RFC 9989 added: receivers still on RFC 7489 ignore it.',
    color: styles.added.color,
    textColor: styles.added.text,
  },
  {
    label: styles.removed.label,
    meaning: 'A tag RFC 9989 removed: RFC 9989 receivers ignore it; RFC 7489 receivers still read it.',
    color: styles.removed.color,
    textColor: styles.removed.text,
  },
];

interface SpecBadgeProps {
  kind: keyof typeof styles;
  /** What the badge means, shown on hover and focus and read by screen readers. */
  explanation: string;
}

/** Marks a tag that RFC 9989 (DMARCbis) added or removed; the explanation is the reason. */
export function SpecBadge({ kind, explanation }: SpecBadgeProps) {
  const style = styles[kind];
  const descriptionId = useId();
  return (
    <>
      <Tooltip
        label={explanation}
        multiline
        w={320}
        withArrow
        events={{ hover: true, focus: true, touch: true }}
      >
        <Badge
          component="span"
          tabIndex={0}
          size="sm"
          radius="sm"
          variant="filled"
          color={style.color}
          c={style.text}
          aria-describedby={descriptionId}
          data-spec-badge={kind}
          styles={{ root: { cursor: 'help', flexShrink: 0, textTransform: 'none' } }}
        >
          {style.label}
        </Badge>
      </Tooltip>
      <span id={descriptionId} hidden>
        {explanation}
      </span>
    </>
  );
}

/** The badge of a tag RFC 9989 removed, with its reason (Appendix A.6, C.5.2). */
export function RemovedBadge({ tag }: { tag: DmarcRemovedTag }) {
  const note = dmarcRemovedTagNotes[tag];
  return <SpecBadge kind="removed" explanation={`${note.reason}. ${note.instead}. (${note.rfc})`} />;
}

export const addedTagExplanations = {
  np: 'Added by RFC 9989 (from RFC 9091): the policy for subdomains that do not exist. Receivers still on RFC 7489 ignore it.',
  t: 'Added by RFC 9989: test mode. Receivers apply one level less to failing mail (reject as quarantine, quarantine as none); it replaces pct=0. RFC 7489 receivers ignore it.',
  psd: 'Added by RFC 9989: marks a Public Suffix Domain (y), or an Organizational Domain that its parents must not speak for (n). RFC 7489 receivers ignore it.',
} as const;
