import {
  buildTlsRptSampleReport,
  checkTlsRpt,
  generateTlsRptRecord,
  readTlsRptReport,
  tlsRptOperations,
} from '@rfckit/standards';
import { unlessResolverFailed } from '../could-not-check.ts';
import { defineHandlers } from '../contract.ts';
import { resultOf } from '../outcome.ts';
import { asTargetProblem } from '../target-problem.ts';
import { livePolicyOf, type LivePolicy } from './live-policy.ts';

/**
 * TLS-RPT (RFC 8460): the record generator and validator (a pasted record, or the TXT records at
 * _smtp._tls.<domain> through the guarded DNS client), the aggregate report reader, and sample
 * reports for a domain's entered or live policy.
 */
export default defineHandlers(tlsRptOperations, {
  generate: (body) => resultOf(generateTlsRptRecord(body)),
  validate: ({ record, domain }, { app }) => {
    if ((record ?? '') !== '' || domain === undefined) return checkTlsRpt({ record });
    const { dns } = app.net.session();
    return unlessResolverFailed(dns, checkTlsRpt({ domain }, dns));
  },
  report: ({ report }) => readTlsRptReport(report),
  sample: async ({ domain, policy }, { app, signal }) => {
    let applied: LivePolicy;
    if (policy) {
      applied = { ...policy, source: 'entered', note: 'The policy entered.' };
    } else {
      const net = app.net.session();
      applied = await unlessResolverFailed(net.dns, livePolicyOf(net, domain, signal)).catch(
        (error: unknown) => {
          throw asTargetProblem(error);
        },
      );
    }
    const report = buildTlsRptSampleReport({ domain, policy: applied, now: new Date() });
    return { report: JSON.stringify(report, null, 2), policy: applied };
  },
});
