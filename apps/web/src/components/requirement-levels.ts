/**
 * The requirement levels rfckit marks fields and guidance with. MUST … MAY are the RFC 2119
 * keywords (as clarified by RFC 8174); WILL, HAVE and COULD are the spec's product-guidance levels.
 */
export const requirementLevels = [
  'MUST',
  'MUST NOT',
  'SHOULD',
  'SHOULD NOT',
  'WILL',
  'HAVE',
  'MAY',
  'COULD',
] as const;

export type Requirement = (typeof requirementLevels)[number];

export interface RequirementStyle {
  /** Badge background; every pair below keeps at least 4.5:1 text contrast. */
  background: string;
  text: string;
  /** Who defines the level. */
  source: 'RFC 2119' | 'rfckit guidance';
  /** One-line gist for the legend. */
  short: string;
  /** Full explanation for the tooltip and screen readers. */
  explanation: string;
}

export const requirementStyles: Record<Requirement, RequirementStyle> = {
  MUST: {
    background: 'var(--mantine-color-red-9)',
    text: '#ffffff',
    source: 'RFC 2119',
    short: 'Absolute requirement.',
    explanation:
      'MUST (also REQUIRED, SHALL): an absolute requirement of the specification. A record that breaks it is not compliant.',
  },
  'MUST NOT': {
    background: 'var(--mantine-color-grape-9)',
    text: '#ffffff',
    source: 'RFC 2119',
    short: 'Absolute prohibition.',
    explanation:
      'MUST NOT (also SHALL NOT): an absolute prohibition of the specification. Doing it makes the configuration non-compliant.',
  },
  SHOULD: {
    background: 'var(--mantine-color-orange-6)',
    text: '#000000',
    source: 'RFC 2119',
    short: 'Recommended; deviate only with good reason.',
    explanation:
      'SHOULD (also RECOMMENDED): there may be valid reasons in particular circumstances to ignore this item, but the full implications must be understood and carefully weighed before choosing a different course.',
  },
  'SHOULD NOT': {
    background: 'var(--mantine-color-yellow-4)',
    text: '#000000',
    source: 'RFC 2119',
    short: 'Not recommended; only with good reason.',
    explanation:
      'SHOULD NOT (also NOT RECOMMENDED): there may be valid reasons in particular circumstances when this behaviour is acceptable or even useful, but the full implications should be understood and the case carefully weighed first.',
  },
  WILL: {
    background: 'var(--mantine-color-blue-8)',
    text: '#ffffff',
    source: 'rfckit guidance',
    short: 'What will happen as a consequence.',
    explanation:
      'WILL (rfckit guidance, not an RFC 2119 keyword): describes what a resolver, receiver or this tool will do as a result of your configuration, so you can predict the outcome.',
  },
  HAVE: {
    background: 'var(--mantine-color-violet-8)',
    text: '#ffffff',
    source: 'rfckit guidance',
    short: 'A prerequisite you need in place.',
    explanation:
      'HAVE (rfckit guidance, not an RFC 2119 keyword): something you have to have in place first, such as access to the parent zone or a signed zone, for the item to work.',
  },
  MAY: {
    background: 'var(--mantine-color-teal-9)',
    text: '#ffffff',
    source: 'RFC 2119',
    short: 'Truly optional.',
    explanation:
      'MAY (also OPTIONAL): the item is truly optional. Implementations that include it and those that leave it out must still work together.',
  },
  COULD: {
    background: 'var(--mantine-color-gray-7)',
    text: '#ffffff',
    source: 'rfckit guidance',
    short: 'An improvement worth considering.',
    explanation:
      'COULD (rfckit guidance, not an RFC 2119 keyword): an improvement beyond what the standard asks that you could make if it suits your situation.',
  },
};

/**
 * The other words RFC 2119 gives each level, which a badge prints where its source does
 * (RFC 2119 §1-§5: REQUIRED and SHALL mean MUST, RECOMMENDED means SHOULD, OPTIONAL means MAY).
 */
export const requirementSynonyms = {
  REQUIRED: 'MUST',
  SHALL: 'MUST',
  'SHALL NOT': 'MUST NOT',
  RECOMMENDED: 'SHOULD',
  'NOT RECOMMENDED': 'SHOULD NOT',
  OPTIONAL: 'MAY',
} as const satisfies Record<string, Requirement>;

export type RequirementSynonym = keyof typeof requirementSynonyms;

/** Every word a requirement badge can print, each with the level it stands for, levels first in their order. */
export const requirementWords: readonly { word: Requirement | RequirementSynonym; level: Requirement }[] =
  requirementLevels.flatMap((level) => [
    { word: level, level },
    ...(Object.keys(requirementSynonyms) as RequirementSynonym[])
      .filter((synonym) => requirementSynonyms[synonym] === level)
      .map((word) => ({ word, level })),
  ]);

/** RFC 8174 clarifies that only the capitalised words carry these meanings. */
export const keywordNote =
  'Per RFC 2119 and RFC 8174, these words carry their meaning only when written in capitals. WILL, HAVE and COULD are rfckit guidance.';
