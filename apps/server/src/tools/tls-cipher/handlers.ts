import { tlsAnalysis, tlsCipherOperations, tlsServerConfig, validateCipherSuite } from '@rfckit/standards';
import { scanTls } from '../../tls/scan.ts';
import { defineHandlers } from '../contract.ts';
import { asTargetProblem } from '../target-problem.ts';
import { fetchHsts } from './hsts.ts';

/** One scan's time budget: what is found by then is answered, marked incomplete. */
const SCAN_BUDGET_MS = 60_000;

/**
 * The TLS scan graded after SSL Labs' rating guide, cipher-suite look-up and Mozilla-based server
 * configurations; the logic lives in @rfckit/standards, the scanner in src/tls/. Sockets go through
 * the guarded outbound layer.
 */
export default defineHandlers(tlsCipherOperations, {
  analyse: async ({ host, port, starttls }, { app, progress, signal }) => {
    const net = app.net.session();
    // HSTS is an HTTPS header (RFC 6797), read from the web server on 443
    const hsts =
      starttls !== undefined
        ? Promise.resolve({
            checked: false,
            note: 'HSTS applies to HTTPS only (RFC 6797), not to STARTTLS services',
          })
        : port === 443
          ? fetchHsts(net, host, signal)
          : Promise.resolve({ checked: false, note: 'HSTS is read from HTTPS on port 443 only' });
    const report = await scanTls(
      net,
      { host, port, ...(starttls === undefined ? {} : { starttls }) },
      { onProgress: progress, signal, budgetMs: SCAN_BUDGET_MS },
    ).catch((error: unknown) => {
      throw asTargetProblem(error);
    });
    return tlsAnalysis(report, await hsts);
  },
  validate: (body) => validateCipherSuite(body.cipherSuite),
  recommendations: (query) => tlsServerConfig(query.profile, query.server),
});
