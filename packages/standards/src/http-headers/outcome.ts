/** What one Observatory test concluded: a result id of the score table, pass/fail and the specifics. */
export interface TestOutcome {
  /** Expectation id from the score table, e.g. `csp-implemented-with-unsafe-inline`. */
  result: string;
  pass: boolean;
  /** What was found, in sentences an administrator can act on (values, offending sources …). */
  details: string[];
}

/**
 * Keeps the worse of two results, "worse" being the later position in `order` (best first); a
 * result missing from `order` ranks before all of it. The Observatory's own tie-break rule.
 */
export function worseOf(next: string, current: string | null, order: readonly string[]): string {
  if (current === null) return next;
  return order.indexOf(next) > order.indexOf(current) ? next : current;
}
