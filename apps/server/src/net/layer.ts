import { readFileSync } from 'node:fs';
import { createAddressPolicy, parseCidrList, type AddressPolicy } from './address.ts';
import type { ConnectToRule } from './connect-to.ts';
import { createDnsClient, type DnsClient, type DnsSession, type DnsSessionOptions } from './dns.ts';
import { createHttpClient, type FetchOptions, type FetchResult, type HttpLimits } from './http.ts';
import { createProbeClient, type ProbeClient, type ProbeLimits } from './probe.ts';

/** One tool call's view of the network: a DNS session (shared cache and budget) and fetch. */
export interface NetSession {
  dns: DnsSession;
  /** The guarded HTTP(S) fetch (see `HttpClient.fetch`), resolving through `dns`. */
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
  /** Whether the outbound rule lets the server connect to `address` (for TLS/SMTP probes). */
  policy: AddressPolicy;
  /** Guarded raw TCP connections for TLS and STARTTLS probes, resolving through `dns`. */
  probe: ProbeClient;
}

export interface NetLayer {
  dns: DnsClient;
  policy: AddressPolicy;
  connectTo: readonly ConnectToRule[];
  /** Starts a session for one tool call. */
  session(options?: {
    dns?: DnsSessionOptions;
    limits?: Partial<HttpLimits>;
    probeLimits?: Partial<ProbeLimits>;
  }): NetSession;
}

export interface NetLayerOptions {
  /** DNS_SERVERS; undefined uses the system's. */
  dnsServers?: readonly string[];
  /** OUTBOUND_ALLOW ranges, e.g. `127.0.0.0/8`. */
  allow?: readonly string[];
  connectTo?: readonly ConnectToRule[];
  /** OUTBOUND_CA_FILE: a PEM file whose certificates are trusted besides Node's store. */
  caFile?: string;
  userAgent: string;
  limits?: Partial<HttpLimits>;
  /** Settings of the DNS client beyond its servers (tests shorten the timeouts). */
  dnsTimeoutMs?: number;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The outbound layer (docs/architecture.md §6) built from configuration: the only way tools reach the network. */
export function createNetLayer(options: NetLayerOptions): NetLayer {
  const dns = createDnsClient({
    ...(options.dnsServers === undefined ? {} : { servers: options.dnsServers }),
    ...(options.dnsTimeoutMs === undefined ? {} : { timeoutMs: options.dnsTimeoutMs }),
  });
  const policy = createAddressPolicy(parseCidrList((options.allow ?? []).join(',')));
  const connectTo = options.connectTo ?? [];
  const extraCa =
    options.caFile === undefined ? [] : (readFileSync(options.caFile, 'utf8').match(PEM_CERTIFICATE) ?? []);
  return {
    dns,
    policy,
    connectTo,
    session(sessionOptions = {}) {
      const session = dns.session(sessionOptions.dns);
      const http = createHttpClient({
        resolver: session,
        policy,
        connectTo,
        extraCa,
        userAgent: options.userAgent,
        limits: { ...options.limits, ...sessionOptions.limits },
      });
      const probe = createProbeClient({
        resolver: session,
        policy,
        connectTo,
        extraCa,
        ...(sessionOptions.probeLimits === undefined ? {} : { limits: sessionOptions.probeLimits }),
      });
      return { dns: session, fetch: (url, fetchOptions) => http.fetch(url, fetchOptions), policy, probe };
    },
  };
}
