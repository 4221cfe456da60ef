/** How often a field may appear in one security.txt file. */
export type FieldOccurrence = 'required-once' | 'required' | 'once' | 'any';

/** A field of the IANA "security.txt Fields" registry (RFC 9116 §6.4). */
export interface SecurityTxtFieldDefinition {
  /** Spelling of the registry; names are matched case-insensitively (RFC 9116 §2.5). */
  name: string;
  /** Lower-case name, the key fields are matched by. */
  key: string;
  /** Section that defines the field. */
  rfc: string;
  /** The value is a URI (RFC 3986 §3) and a web URI must begin with https:// . */
  uri: boolean;
  occurrence: FieldOccurrence;
  /** One sentence on what the field is for. */
  summary: string;
}

function field(
  name: string,
  rfc: string,
  uri: boolean,
  occurrence: FieldOccurrence,
  summary: string,
): SecurityTxtFieldDefinition {
  return { name, key: name.toLowerCase(), rfc, uri, occurrence, summary };
}

/**
 * The registered fields in the order of RFC 9116 §2.5 (alphabetical there), then CSAF, which the
 * OASIS CSAF 2.0 standard registered later. Generated files write their fields in this order.
 */
export const securityTxtFields: readonly SecurityTxtFieldDefinition[] = [
  field(
    'Acknowledgments',
    'RFC 9116 §2.5.1',
    true,
    'any',
    'A page where security researchers are thanked for their reports.',
  ),
  field(
    'Canonical',
    'RFC 9116 §2.5.2',
    true,
    'any',
    'The URIs where this file is meant to be found; with a signature it authenticates the location.',
  ),
  field(
    'Contact',
    'RFC 9116 §2.5.3',
    true,
    'required',
    'How to report a vulnerability: a mailto:, tel: or https: URI, the preferred one first.',
  ),
  field(
    'Encryption',
    'RFC 9116 §2.5.4',
    true,
    'any',
    'A URI where the key for encrypted reports can be fetched (never the key itself).',
  ),
  field(
    'Expires',
    'RFC 9116 §2.5.5',
    false,
    'required-once',
    'The date and time after which the file is stale (RFC 3339), less than a year ahead.',
  ),
  field('Hiring', 'RFC 9116 §2.5.6', true, 'any', 'Security-related job openings.'),
  field('Policy', 'RFC 9116 §2.5.7', true, 'any', 'The vulnerability disclosure policy.'),
  field(
    'Preferred-Languages',
    'RFC 9116 §2.5.8',
    false,
    'once',
    'Comma-separated language tags (BCP 47) the reports may be written in, all of equal priority.',
  ),
  field(
    'CSAF',
    'CSAF 2.0 §7.1.8',
    true,
    'any',
    'The https URL of the provider-metadata.json of a CSAF provider (security advisories).',
  ),
];

const byKey = new Map(securityTxtFields.map((definition) => [definition.key, definition]));

/** The registered field with this name, in any letter case. */
export function findSecurityTxtField(name: string): SecurityTxtFieldDefinition | undefined {
  return byKey.get(name.toLowerCase());
}

/** Levenshtein distance, for suggesting the field an unknown name was probably meant to be. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The registered field an unknown name is most likely a misspelling of ('Acknowledgements',
 * 'Contacts', 'Expiry'), or undefined when none is close.
 */
export function suggestSecurityTxtField(name: string): SecurityTxtFieldDefinition | undefined {
  const key = name.toLowerCase();
  let best: { definition: SecurityTxtFieldDefinition; distance: number } | undefined;
  for (const definition of securityTxtFields) {
    const distance = editDistance(key, definition.key);
    // short names need a closer match: 'csaf' vs 'case' should not count
    const allowed = definition.key.length <= 5 ? 1 : 2;
    if (distance <= allowed && (!best || distance < best.distance)) best = { definition, distance };
  }
  if (!best && key.startsWith('expir')) return findSecurityTxtField('expires');
  return best?.definition;
}
