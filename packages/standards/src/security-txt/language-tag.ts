/** RFC 5646 §2.1 grandfathered tags, matched whole and case-insensitively. */
const grandfathered = new Set(
  [
    'en-GB-oed',
    'i-ami',
    'i-bnn',
    'i-default',
    'i-enochian',
    'i-hak',
    'i-klingon',
    'i-lux',
    'i-mingo',
    'i-navajo',
    'i-pwn',
    'i-tao',
    'i-tay',
    'i-tsu',
    'sgn-BE-FR',
    'sgn-BE-NL',
    'sgn-CH-DE',
    'art-lojban',
    'cel-gaulish',
    'no-bok',
    'no-nyn',
    'zh-guoyu',
    'zh-hakka',
    'zh-min',
    'zh-min-nan',
    'zh-xiang',
  ].map((tag) => tag.toLowerCase()),
);

// RFC 5646 §2.1 langtag, with named groups for the checks of §2.2.5 and §2.2.6
const langtag = new RegExp(
  '^(?<language>[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4}|[a-z]{5,8})' +
    '(?:-(?<script>[a-z]{4}))?' +
    '(?:-(?<region>[a-z]{2}|\\d{3}))?' +
    '(?<variants>(?:-(?:[a-z\\d]{5,8}|\\d[a-z\\d]{3}))*)' +
    '(?<extensions>(?:-[\\da-wy-z](?:-[a-z\\d]{2,8})+)*)' +
    '(?:-x(?:-[a-z\\d]{1,8})+)?$',
  'i',
);
const privateUse = /^x(?:-[a-z\d]{1,8})+$/i;

export type LanguageTagCheck = { ok: true } | { ok: false; reason: string };

/**
 * Whether `tag` is a language tag of BCP 47 (RFC 5646): well-formed per the ABNF of §2.1, no
 * repeated variant or extension singleton (§2.2.5, §2.2.6), and a primary language subtag of the
 * kind the IANA registry holds. The registry itself is not embedded, so a well-formed 2- or
 * 3-letter code that IANA never registered passes; 4-letter subtags are reserved (§2.2.1) and
 * none of 5 to 8 letters has been registered, which catches names such as 'English'.
 */
export function checkLanguageTag(tag: string): LanguageTagCheck {
  const lower = tag.toLowerCase();
  if (grandfathered.has(lower) || privateUse.test(tag)) return { ok: true };
  const match = langtag.exec(tag);
  if (!match?.groups) {
    return { ok: false, reason: `'${tag}' is not a well-formed language tag (RFC 5646 §2.1)` };
  }
  const { language = '', variants = '', extensions = '' } = match.groups;
  const primary = language.split('-')[0] ?? '';
  if (primary.length === 4) {
    return {
      ok: false,
      reason: `'${tag}': 4-letter primary language subtags are reserved (RFC 5646 §2.2.1)`,
    };
  }
  if (primary.length > 4) {
    return {
      ok: false,
      reason: `'${tag}' is not a registered language subtag: use the 2- or 3-letter code, e.g. 'en' for English`,
    };
  }
  const variantList = variants.toLowerCase().split('-').filter(Boolean);
  if (new Set(variantList).size !== variantList.length) {
    return { ok: false, reason: `'${tag}' repeats a variant subtag (RFC 5646 §2.2.5)` };
  }
  const singletons = extensions
    .toLowerCase()
    .split('-')
    .filter((part) => part.length === 1);
  if (new Set(singletons).size !== singletons.length) {
    return { ok: false, reason: `'${tag}' repeats an extension singleton (RFC 5646 §2.2.6)` };
  }
  return { ok: true };
}
