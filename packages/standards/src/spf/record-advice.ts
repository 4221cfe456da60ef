import type { Diagnostic } from '../core/diagnostic.ts';
import { formatIp, networkAddress } from './ip.ts';
import { qualifierResults, recordLookupTerms, SPF_LOOKUP_LIMIT, type SpfRecord } from './record.ts';

/** Advice on a record that parsed: what is allowed but risky, ignored or discouraged. */
export function adviseOnRecord(record: SpfRecord): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { mechanisms, all } = record;
  if (all !== undefined) {
    if (all.qualifier === '+') {
      out.push({
        severity: 'warning',
        code: 'SPF_ALL_PASS',
        message: `'${all.text}' authorises every host on the Internet to send mail as this domain`,
        rfc: 'RFC 7208 §5.1',
        fix: "End the record with '-all' (or '~all' while testing).",
        span: all.span,
      });
    } else if (all.qualifier === '?') {
      out.push({
        severity: 'warning',
        code: 'SPF_ALL_NEUTRAL',
        message: "'?all' makes every other host neutral: receivers learn nothing about unlisted senders",
        rfc: 'RFC 7208 §2.6.2',
        fix: "Use '~all' while testing and '-all' once every sender is listed.",
        span: all.span,
      });
    }
    // only a '+' mechanism gives pass (RFC 7208 §4.6.2); with none before 'all' no host passes
    const authorising = mechanisms.filter((m) => m.index < all.index && m.qualifier === '+');
    if (all.qualifier !== '+' && authorising.length === 0) {
      const nullPolicy = all.qualifier === '-';
      out.push({
        severity: nullPolicy ? 'info' : 'warning',
        code: 'SPF_NO_SENDER',
        message: nullPolicy
          ? 'the record authorises no sender: all mail from this domain fails SPF, as it should for a domain that sends no mail'
          : `the record authorises no sender: every host, your own mail servers too, gets '${qualifierResults[all.qualifier]}' from '${all.text}'`,
        rfc: 'RFC 7208 §4.6.2',
        fix: nullPolicy
          ? "If the domain sends mail, list its sending hosts (ip4:, ip6:, a, mx or include:) before '-all'."
          : `List the hosts that send this domain's mail (ip4:, ip6:, a, mx or include:) before '${all.text}'; for a domain that sends no mail, publish 'v=spf1 -all'.`,
        span: all.span,
      });
    }
    for (const after of mechanisms.filter((m) => m.index > all.index)) {
      out.push({
        severity: 'warning',
        code: 'SPF_AFTER_ALL',
        message: `'${after.text}' comes after '${all.text}' and is never evaluated`,

        rfc: 'RFC 7208 §5.1',
        fix: `Move '${after.text}' before '${all.text}' or remove it.`,
        span: after.span,
      });
    }
    if (record.redirect !== undefined) {
      out.push({
        severity: 'warning',
        code: 'SPF_REDIRECT_IGNORED',
        message: `'${record.redirect.text}' is ignored because the record has an 'all' mechanism`,

        rfc: 'RFC 7208 §5.1',
        fix: `Remove '${all.text}' to hand unmatched senders to the redirect, or remove the redirect.`,
        span: record.redirect.span,
      });
    }
  } else if (record.redirect === undefined) {
    out.push({
      severity: mechanisms.length === 0 ? 'warning' : 'info',
      code: mechanisms.length === 0 ? 'SPF_EMPTY_RECORD' : 'SPF_NO_ALL',
      message:
        mechanisms.length === 0
          ? "the record has no mechanisms: every sender gets 'neutral'"
          : "the record ends without 'all' or 'redirect': unmatched senders get 'neutral'",
      rfc: 'RFC 7208 §4.7',
      fix: "End the record with '-all' (or '~all' while testing).",
    });
  }
  for (const modifier of [record.redirect, record.exp]) {
    if (modifier === undefined) continue;
    const later = mechanisms.find((m) => m.index > modifier.index);
    if (later !== undefined) {
      out.push({
        severity: 'info',
        code: 'SPF_MODIFIER_POSITION',
        message: `'${modifier.text}' should come after all mechanisms ('${later.text}' follows it)`,
        requirement: 'SHOULD',
        rfc: 'RFC 7208 §6',
        fix: `Move '${modifier.text}' to the end of the record.`,
        span: modifier.span,
      });
    }
  }
  for (const term of record.terms) {
    if (term.type === 'modifier' && term.kind === 'unknown') {
      const hint =
        term.name === 'default'
          ? " ('default=' came from early drafts and was never part of SPF)"
          : /^(redirects?|redir|exps?|explanation)$/.test(term.name)
            ? ` (did you mean '${term.name.startsWith('r') ? 'redirect' : 'exp'}='?)`
            : '';
      out.push({
        severity: 'warning',
        code: 'SPF_UNKNOWN_MODIFIER',
        message: `unknown modifier '${term.name}=' is ignored by receivers${hint}`,
        rfc: 'RFC 7208 §6',
        fix: hint.includes('did you mean')
          ? `Write ${term.name.startsWith('r') ? 'redirect' : 'exp'}= instead.`
          : `Remove '${term.text}': no receiver uses it.`,
        span: term.span,
      });
    }
    if (term.type === 'mechanism' && term.name === 'ptr') {
      out.push({
        severity: 'warning',
        code: 'SPF_PTR',
        message: `'${term.text}': the ptr mechanism should not be published; it is slow, unreliable and loads the .arpa servers`,
        requirement: 'SHOULD NOT',
        rfc: 'RFC 7208 §5.5',
        fix: 'List the sending hosts with ip4:, ip6:, a or include instead.',
        span: term.span,
      });
    }
    const spec = term.type === 'invalid' ? undefined : term.domainSpec;
    if (spec?.tokens.some((t) => t.kind === 'macro' && t.letter === 'p') === true) {
      out.push({
        severity: 'warning',
        code: 'SPF_MACRO_P',
        message: `'${term.text}': the %{p} macro should not be used; it needs the same slow PTR lookups as ptr`,
        requirement: 'SHOULD NOT',
        rfc: 'RFC 7208 §7.3',
        fix: 'Use a macro that needs no PTR lookup (such as %{i} or %{d}), or list the hosts with ip4/ip6.',
        span: term.span,
      });
    }
    if (term.type === 'mechanism' && term.qualifier !== '-' && term.qualifier !== '~') {
      const wide =
        (term.network !== undefined && term.network.prefix === 0) || term.ip4Cidr === 0 || term.ip6Cidr === 0;
      if (wide) {
        out.push({
          severity: 'warning',
          code: 'SPF_PREFIX_ZERO',
          message: `'${term.text}' has a /0 prefix: it authorises every ${term.ip6Cidr === 0 || term.network?.address.version === 6 ? 'IPv6' : 'IPv4'} address`,
          rfc: 'RFC 7208 §5.6',
          fix: 'Use the prefix length of the network you actually send from.',
          span: term.span,
        });
      }
    }
    if (term.type === 'mechanism' && term.network !== undefined) {
      const { address, prefix } = term.network;
      const base = networkAddress(address, prefix);
      if (formatIp(base) !== formatIp(address)) {
        out.push({
          severity: 'info',
          code: 'SPF_IP_HOST_BITS',
          message: `'${term.text}' has host bits set: it matches ${formatIp(base)}/${prefix}`,
          rfc: 'RFC 7208 §5.6',
          fix: `Write ${term.name}:${formatIp(base)}/${prefix}.`,
          span: term.span,
        });
      }
    }
  }
  const lookups = recordLookupTerms(record);
  if (lookups.length > SPF_LOOKUP_LIMIT) {
    const over = lookups[SPF_LOOKUP_LIMIT];
    out.push({
      severity: 'error',
      code: 'SPF_LOOKUP_LIMIT',
      message: `the record has ${lookups.length} terms that query the DNS; evaluation stops with permerror at the ${SPF_LOOKUP_LIMIT + 1}th`,
      requirement: 'MUST',
      rfc: 'RFC 7208 §4.6.4',
      fix: 'Replace a and mx terms by ip4:/ip6: networks, or merge includes, to stay at 10 or fewer.',
      ...(over === undefined ? {} : { span: over.span }),
    });
  }
  return out;
}
