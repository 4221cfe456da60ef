import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type * as OpenType from 'opentype.js';

// The standard PDF fonts (Helvetica) draw WinAnsi only: customers' names in other scripts came out as
// '?'. Invoices embed DejaVu Sans instead (Bitstream Vera licence, see NOTICE.md): one TTF per weight
// for Latin and Latin Extended, Greek, Cyrillic, Vietnamese, Armenian, Georgian, Hebrew and more;
// pdfkit embeds only the glyphs a document uses.
//
// CJK, Thai, Devanagari and a few other scripts are not in DejaVu. A fallback font for them is too
// heavy to ship: Noto Sans JP is 5.5 MB per weight (a 29 MB package), Noto Sans SC 10.5 MB. Those
// characters are drawn as empty boxes from a small font made for the document, one box glyph per
// character, whose ToUnicode map names the real character: the PDF shows that its fonts lack the
// glyph, yet copying, searching and reading it aloud give the real text (the HTML invoice shows it).

const require = createRequire(import.meta.url);

let openTypeModule: typeof OpenType | undefined;
/** opentype.js too is loaded with the first PDF, not when the server starts. */
function openType(): typeof OpenType {
  openTypeModule ??= require('opentype.js') as typeof OpenType;
  return openTypeModule;
}

const FACE_FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
} as const;

export type InvoiceFace = keyof typeof FACE_FILES;

export interface EmbeddedFace {
  /** The TTF file, for pdfkit to subset and embed. */
  data: Buffer;
  /** Whether the face has a glyph for this character (one code point). */
  covers(character: string): boolean;
}

export interface InvoiceFonts {
  regular: EmbeddedFace;
  bold: EmbeddedFace;
  /** The regular face's vertical metrics per 1000 units, shared by the box font so lines keep their height. */
  metrics: { ascender: number; descender: number };
}

let loading: Promise<InvoiceFonts> | undefined;

/** Read on the first PDF, not at start-up (most processes never make one), then kept. */
export function invoiceFonts(): Promise<InvoiceFonts> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function openFace(specifier: string): Promise<{ face: EmbeddedFace; font: OpenType.Font }> {
  // resolved from this package's node_modules, so it works from any checkout after `npm ci`
  const data = await readFile(require.resolve(specifier));
  const font = openType().parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength), {
    lowMemory: true,
  });
  return { face: { data, covers: (character) => font.charToGlyphIndex(character) !== 0 }, font };
}

async function load(): Promise<InvoiceFonts> {
  const [regular, bold] = await Promise.all([openFace(FACE_FILES.regular), openFace(FACE_FILES.bold)]);
  const scale = 1000 / regular.font.unitsPerEm;
  return {
    regular: regular.face,
    bold: bold.face,
    metrics: {
      ascender: Math.round(regular.font.ascender * scale),
      descender: Math.round(regular.font.descender * scale),
    },
  };
}

/** Box glyphs are an em wide, as the CJK characters they mostly stand for. */
const BOX_ADVANCE = 1000;

function box(): OpenType.Path {
  const path = new (openType().Path)();
  // outer contour clockwise, inner anticlockwise: a hollow rectangle under the non-zero rule
  path.moveTo(100, 0);
  path.lineTo(100, 720);
  path.lineTo(900, 720);
  path.lineTo(900, 0);
  path.close();
  path.moveTo(160, 60);
  path.lineTo(840, 60);
  path.lineTo(840, 660);
  path.lineTo(160, 660);
  path.close();
  return path;
}

/** The PostScript name of the box font, as it appears (after a subset tag) in the PDF. */
export const MISSING_GLYPH_FONT_NAME = 'RfckitMissingGlyph-Regular';

/**
 * A font whose glyph for each of these characters is an empty box: embedded, it maps every box to
 * its real character in the PDF's ToUnicode map (one shared .notdef glyph could map to none).
 */
export function missingGlyphFont(characters: Iterable<string>, metrics: InvoiceFonts['metrics']): Buffer {
  const { Font, Glyph } = openType();
  const glyphs = [new Glyph({ name: '.notdef', advanceWidth: BOX_ADVANCE, path: box() })];
  for (const character of new Set(characters)) {
    const code = character.codePointAt(0) ?? 0;
    glyphs.push(
      new Glyph({
        name: `u${code.toString(16).toUpperCase().padStart(4, '0')}`,
        unicode: code,
        advanceWidth: BOX_ADVANCE,
        path: box(),
      }),
    );
  }
  const font = new Font({
    familyName: 'RfckitMissingGlyph',
    styleName: 'Regular',
    postScriptName: MISSING_GLYPH_FONT_NAME,
    unitsPerEm: 1000,
    ascender: metrics.ascender,
    descender: metrics.descender,
    glyphs,
  });
  return Buffer.from(font.toArrayBuffer());
}
