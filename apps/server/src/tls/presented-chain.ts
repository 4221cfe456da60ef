import { X509Certificate } from 'node:crypto';
import type { DaneCertificateResult } from '@rfckit/standards';
import type { NetSession } from '../net/layer.ts';
import type { StarttlsProtocol } from '../net/starttls.ts';
import { certificateFromHandshake, verifyChain } from './certificate.ts';
import { openConnection } from './exchange.ts';
import { asTargetProblem } from '../tools/target-problem.ts';

/** Per step: connect, each STARTTLS reply, the handshake. */
export const PRESENTED_CHAIN_STEP_TIMEOUT_MS = 10_000;

/** Ports where mail servers speak plain SMTP first: 25 between MX hosts, 587 for submission (RFC 6409). */
const SMTP_PORTS = new Set([25, 587]);

/**
 * The chain a server presents, through the guarded probe layer as the TLS tester reads it: the
 * name checked and resolved once, STARTTLS when asked (SMTP on 25 and 587 by default), then Node's
 * handshake. A target that cannot be reached or does not speak TLS is a 422 about it.
 */
export async function fetchPresentedChain(
  net: NetSession,
  request: { host: string; port: number; starttls?: StarttlsProtocol | 'none' | undefined },
  signal: AbortSignal,
): Promise<DaneCertificateResult> {
  const starttls =
    request.starttls === 'none'
      ? undefined
      : (request.starttls ?? (SMTP_PORTS.has(request.port) ? 'smtp' : undefined));
  try {
    const target = await net.probe.target(request.host, request.port, signal);
    const connection = await openConnection({
      probe: net.probe,
      target,
      starttls,
      host: target.host,
      timeoutMs: PRESENTED_CHAIN_STEP_TIMEOUT_MS,
      signal,
      onConnection: () => undefined,
    });
    // the chain as sent: DANE-TA needs its trust anchor in it unless the record holds it in full
    // (RFC 7671 §5.2.2), so an issuer from our own store must not appear to come from the server
    const handshake = await connection
      .handshake({
        ...(target.isName ? { servername: target.host } : {}),
        trustStore: false,
        timeoutMs: PRESENTED_CHAIN_STEP_TIMEOUT_MS,
      })
      .finally(() => connection.close());
    const scan = certificateFromHandshake(handshake.report);
    const certificates = scan.chain.map((certificate, index) => ({
      index,
      subject: certificate.subject,
      issuer: certificate.issuer,
      notBefore: certificate.validFrom,
      notAfter: certificate.validTo,
      selfIssued: certificate.subject === certificate.issuer,
      pem: certificate.pem.trim(),
    }));
    return {
      host: target.host,
      port: request.port,
      starttls: starttls ?? null,
      certificates,
      pem: `${certificates.map((certificate) => certificate.pem).join('\n')}\n`,
      trusted: verifyChain(
        scan.chain.map((certificate) => new X509Certificate(certificate.pem).raw),
        net.probe.trustAnchors,
      ).trusted,
      nameMatches: scan.nameMatches,
    };
  } catch (error) {
    throw asTargetProblem(error);
  }
}
