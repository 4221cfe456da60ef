import { getPublicSuffix } from 'tldts';
import { aLabelPrefix, domainToAscii } from './punycode.ts';

/**
 * Matching of presented DNS identifiers (certificate dNSName, the name part of an SRV-ID, a CN used as
 * a fallback) against a reference identifier: RFC 6125 §6.4 with the stricter wildcard rule of
 * RFC 7817 §3 (a wildcard only as the complete left-most label).
 */

/** Why a presented name can never match anything, or null when it can. */
export type PresentedNameProblem =
  | 'empty'
  | 'partial-wildcard'
  | 'a-label-wildcard'
  | 'wildcard-not-left-most'
  | 'wildcard-too-broad'
  | 'invalid-a-label';

export interface PresentedName {
  /** As presented. */
  presented: string;
  /** Lower-case A-label form without a trailing dot (U-labels converted). */
  name: string;
  /** The name held U-labels (RFC 5280 §7.2 asks for A-labels in a certificate). */
  hadULabels: boolean;
  wildcard: boolean;
  problem: PresentedNameProblem | null;
}

/** Reads a presented DNS name for matching: its A-label form and whether it could ever match. */
export function readPresentedName(presented: string): PresentedName {
  const trimmed = presented.trim();
  const hadULabels = /[^\p{ASCII}]/u.test(trimmed);
  const ascii = domainToAscii(trimmed);
  const name = ascii.ok ? ascii.name : trimmed.toLowerCase().replace(/\.$/, '');
  const base = { presented, name, hadULabels, wildcard: false };
  if (name === '') return { ...base, problem: 'empty' };
  if (!ascii.ok) return { ...base, problem: 'invalid-a-label' };
  if (!name.includes('*')) return { ...base, problem: null };
  const labels = name.split('.');
  const first = labels[0] ?? '';
  if (labels.slice(1).some((label) => label.includes('*')))
    return { ...base, problem: 'wildcard-not-left-most' };
  if (first !== '*')
    return {
      ...base,
      problem: first.startsWith(aLabelPrefix) ? 'a-label-wildcard' : 'partial-wildcard',
    };
  const parent = labels.slice(1).join('.');
  // RFC 6125 §7.2: a wildcard over a top-level or public-suffix domain stands for other people's names
  if (labels.length < 3 || getPublicSuffix(parent, { allowPrivateDomains: false }) === parent)
    return { ...base, wildcard: true, problem: 'wildcard-too-broad' };
  return { ...base, wildcard: true, problem: null };
}

/**
 * Whether `presented` matches the reference identifier `reference` (already an A-label name): exact,
 * case-insensitive, trailing dot ignored (RFC 6125 §6.4.1); `*.parent` matches exactly one label
 * left of parent and never parent itself (RFC 6125 §6.4.3, RFC 7817 §3).
 */
export function presentedNameMatches(presented: PresentedName, reference: string): boolean {
  if (presented.problem !== null) return false;
  const wanted = reference.toLowerCase().replace(/\.$/, '');
  if (!presented.wildcard) return presented.name === wanted;
  const dot = wanted.indexOf('.');
  return dot > 0 && wanted.slice(dot + 1) === presented.name.slice(2);
}

/** `presentedNameMatches` for a presented name given as text. */
export function dnsIdMatches(presented: string, reference: string): boolean {
  const wanted = domainToAscii(reference);
  return wanted.ok && presentedNameMatches(readPresentedName(presented), wanted.name);
}
