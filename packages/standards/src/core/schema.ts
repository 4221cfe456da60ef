import { z } from 'zod';

/** RFC 2119 / RFC 8174 keywords a diagnostic can cite. */
export const requirementLevelSchema = z.enum(['MUST', 'MUST NOT', 'SHOULD', 'SHOULD NOT', 'MAY']);

export const severitySchema = z.enum(['error', 'warning', 'info']);

export const spanSchema = z
  .object({
    start: z.number().int().nonnegative(),
    end: z.number().int().nonnegative(),
  })
  .describe('Character range of the input the diagnostic is about, end exclusive');

/**
 * Schema of `Diagnostic` (core/diagnostic.ts), for API documentation and response checks. Optional
 * fields are exact: absent, never `undefined`, as in the interface and on the wire.
 */
export const diagnosticSchema = z.object({
  severity: severitySchema,
  code: z.string().describe('Stable machine-readable code, e.g. DNSKEY_PROTOCOL_NOT_3'),
  message: z.string(),
  requirement: requirementLevelSchema.exactOptional(),
  rfc: z.string().exactOptional().describe('Section cited, e.g. RFC 4034 §2.1.2'),
  fix: z.string().exactOptional().describe('How to fix it'),
  span: spanSchema.exactOptional(),
  line: z.number().int().positive().exactOptional().describe('1-based line of a multi-line input'),
});

/**
 * A record with the mechanical fixes of its findings applied (a bad term removed, a missing tag
 * added), offered to copy. `changes` says what changed and why, one line each.
 */
export const correctedRecordSchema = z.object({
  record: z.string().describe('The corrected record; it parses without errors'),
  changes: z.array(z.string()).describe('What was changed and why, one line each, with the RFC section'),
});

export type CorrectedRecord = z.infer<typeof correctedRecordSchema>;

/** Schema of `ValidationResult<P>` (docs/architecture.md §3) for a tool's own `parsed` schema. */
export function validationResultSchema<Parsed extends z.ZodType>(parsed: Parsed) {
  return z.object({
    valid: z.boolean().describe('False when any diagnostic is an error'),
    errors: z.array(z.string()).describe('Messages of the error diagnostics'),
    warnings: z.array(z.string()).describe('Messages of the warning diagnostics'),
    diagnostics: z.array(diagnosticSchema),
    parsed: parsed.exactOptional(),
  });
}
