import type { ImplementationStatus } from '@rfckit/standards';

import type { Requirement, RequirementSynonym } from '../../components/requirement-levels.ts';

/** RFC 8624's table words mapped to badge levels: RECOMMENDED is SHOULD, NOT RECOMMENDED is SHOULD NOT (RFC 2119). */
export function statusBadge(status: ImplementationStatus): { level: Requirement; text?: RequirementSynonym } {
  if (status === 'RECOMMENDED') return { level: 'SHOULD', text: 'RECOMMENDED' };
  if (status === 'NOT RECOMMENDED') return { level: 'SHOULD NOT', text: 'NOT RECOMMENDED' };
  return { level: status };
}
