/** Requirement levels of RFC 2119 / RFC 8174 that a diagnostic can cite. */
export type RequirementLevel = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY';

export type Severity = 'error' | 'warning' | 'info';

/** Character range in the input that a diagnostic is about (end exclusive). */
export interface Span {
  start: number;
  end: number;
}

export interface Diagnostic {
  severity: Severity;
  /** Stable machine-readable code, e.g. `DNSKEY_PROTOCOL_NOT_3`. */
  code: string;
  message: string;
  requirement?: RequirementLevel;
  /** Section cited, e.g. `RFC 4034 §2.1.2`. */
  rfc?: string;
  /** How to fix it, in one sentence an administrator can act on. */
  fix?: string;
  span?: Span;
  /** 1-based line of a multi-line input (security.txt, host-meta …) the diagnostic is about. */
  line?: number;
}

/** The shape every validator returns (docs/architecture.md §3). */
export interface ValidationResult<Parsed> {
  valid: boolean;
  errors: string[];
  warnings: string[];
  diagnostics: Diagnostic[];
  parsed?: Parsed;
}

/** Derives the spec's `errors`/`warnings` lists and `valid` from the diagnostics. */
export function toValidationResult<Parsed>(
  diagnostics: Diagnostic[],
  parsed?: Parsed,
): ValidationResult<Parsed> {
  const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
  const warnings = diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message);
  const result: ValidationResult<Parsed> = { valid: errors.length === 0, errors, warnings, diagnostics };
  if (parsed !== undefined) result.parsed = parsed;
  return result;
}
