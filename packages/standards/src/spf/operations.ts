import { defineOperations } from '../core/operation.ts';
import {
  spfCheckBody,
  spfCheckResultSchema,
  spfGenerateBody,
  spfGenerateResultSchema,
  spfVerifyBody,
  spfVerifyResultSchema,
} from './schema.ts';

/**
 * The SPF tool's operations (docs/architecture.md, "The operation contract"). DNS goes through
 * the server's guarded client; a DNS failure is a temperror inside the result, never a 5xx.
 */
export const spfOperations = defineOperations('spf', {
  verify: {
    path: '/verify',
    body: spfVerifyBody,
    result: spfVerifyResultSchema,
    summary: "Lint a domain's SPF record and its include tree",
    description:
      'Fetches the record at `domain` (or lints `spfRecord` as if it were published there, or on its own ' +
      'without a domain: terms naming the domain itself are then reported as not resolved) and every ' +
      'include and redirect target, one depth at a time in parallel. Reports the DNS lookups per term and ' +
      'in total against the limit of 10, void lookups against the limit of 2, include loops and targets ' +
      'without an SPF record, the tree, and the networks the record authorises (a flattened view). ' +
      '`status` is valid, warnings, permerror, temperror or none. Macro targets are shown, not fetched.',
    rateLimit: 'validation',
    runsIn: 'server',
    // 503 when our DNS resolver did not answer: we could not check
    remoteFailures: true,
  },
  check: {
    path: '/check',
    body: spfCheckBody,
    result: spfCheckResultSchema,
    summary: 'Evaluate SPF for a client address (check_host)',
    description:
      'Runs check_host() (RFC 7208 §4-§6) for `ip`, the MAIL FROM `sender` and the `helo` name against ' +
      '`domain` (by default the sender domain, or the HELO name for a null sender). Returns the result ' +
      '(pass, fail, softfail, neutral, none, permerror, temperror), the deciding term, the exp= explanation, ' +
      'the lookup counts and a step-by-step trace.',
    rateLimit: 'validation',
    runsIn: 'server',
    // 503 when our DNS resolver did not answer: we could not check
    remoteFailures: true,
  },
  generate: {
    path: '/generate',
    body: spfGenerateBody,
    result: spfGenerateResultSchema,
    summary: 'Generate an SPF record',
    description:
      'Builds `v=spf1` from ip4/ip6 networks, a/mx (the domain itself with aSelf/mxSelf, or listed hosts), ' +
      'include and exists lists, the all qualifier, redirect and exp. Blank entries are skipped. ' +
      '`lookups` counts the record alone; `diagnostics` are the parser’s on the result.',
    rateLimit: 'generation',
    runsIn: 'both',
  },
});
