import PDFDocument from 'pdfkit';
import type { InvoiceStatus } from '../db/schema.ts';
import {
  type EmbeddedFace,
  type InvoiceFace,
  type InvoiceFonts,
  invoiceFonts,
  missingGlyphFont,
} from './invoice-fonts.ts';
import { isoDay } from './periods.ts';
import { money } from './service.ts';

/** Everything an invoice document shows, gathered by the route. */
export interface InvoiceDocument {
  number: string;
  status: InvoiceStatus;
  issuedAt: string;
  paidAt: string | null;
  periodStart: string;
  periodEnd: string;
  description: string;
  amountMinor: number;
  currency: string;
  /** "Visa ending 4242, settled by the local payment provider: no payment was taken". */
  paymentSummary: string | null;
  /** Name first, then address lines. */
  seller: readonly string[];
  buyer: readonly string[];
  /** The provider's notice (the local provider takes no payment), or null. */
  notice: string | null;
}

const STATUS_LABELS: Record<InvoiceStatus, string> = {
  paid: 'Paid',
  open: 'Open: payment pending',
  void: 'Void: not payable',
  uncollectible: 'Uncollectible',
};

function paymentLine(document: InvoiceDocument): string {
  if (document.status === 'paid') {
    const when = document.paidAt === null ? '' : ` on ${isoDay(document.paidAt)}`;
    return `Paid${when}${document.paymentSummary === null ? '' : ` with ${document.paymentSummary}`}.`;
  }
  if (document.status === 'open') return 'Not paid yet: it is charged to the default card on file.';
  if (document.status === 'void') return 'This invoice was voided: nothing is owed.';
  return 'This invoice was not paid and will not be collected.';
}

function amountDue(document: InvoiceDocument): number {
  return document.status === 'open' ? document.amountMinor : 0;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A standalone printable page: no scripts, no external resources. */
export function renderInvoiceHtml(document: InvoiceDocument): string {
  const text = (value: string) => escapeHtml(value);
  const lines = (values: readonly string[]) => values.map((line) => text(line)).join('<br>');
  const total = money(document.amountMinor, document.currency);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice ${text(document.number)}</title>
<style>
  :root { color-scheme: light; }
  body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #1a1b1e; background: #fff; margin: 0; }
  main { max-width: 760px; margin: 0 auto; padding: 40px 32px; }
  h1 { font-size: 28px; margin: 0 0 4px; }
  .meta { color: #495057; margin: 0 0 24px; }
  .parties { display: flex; gap: 32px; justify-content: space-between; margin-bottom: 24px; }
  .parties section { flex: 1; }
  h2 { font-size: 12px; text-transform: uppercase; letter-spacing: 0.06em; color: #495057; margin: 0 0 4px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 24px; }
  dt { color: #495057; }
  dd { margin: 0; }
  table { width: 100%; border-collapse: collapse; margin-bottom: 16px; }
  th, td { text-align: left; padding: 8px; border-bottom: 1px solid #ced4da; vertical-align: top; }
  th:last-child, td:last-child { text-align: right; white-space: nowrap; }
  tfoot td { border-bottom: none; font-weight: 600; }
  .notice { border: 2px solid #e67700; border-radius: 6px; padding: 12px 16px; background: #fff9db; margin-top: 24px; }
  @media print { main { padding: 0; } .notice { break-inside: avoid; } }
</style>
</head>
<body>
<main>
  <h1>Invoice ${text(document.number)}</h1>
  <p class="meta">Status: <strong>${text(STATUS_LABELS[document.status])}</strong></p>
  <div class="parties">
    <section aria-labelledby="seller"><h2 id="seller">From</h2><p>${lines(document.seller)}</p></section>
    <section aria-labelledby="buyer"><h2 id="buyer">Bill to</h2><p>${lines(document.buyer)}</p></section>
  </div>
  <dl>
    <dt>Invoice number</dt><dd>${text(document.number)}</dd>
    <dt>Invoice date</dt><dd>${isoDay(document.issuedAt)}</dd>
    <dt>Service period</dt><dd>${isoDay(document.periodStart)} to ${isoDay(document.periodEnd)}</dd>
    ${document.paidAt === null ? '' : `<dt>Paid on</dt><dd>${isoDay(document.paidAt)}</dd>`}
  </dl>
  <table>
    <thead><tr><th scope="col">Description</th><th scope="col">Quantity</th><th scope="col">Amount</th></tr></thead>
    <tbody><tr><td>${text(document.description)}</td><td>1</td><td>${text(total)}</td></tr></tbody>
    <tfoot>
      <tr><td colspan="2">Subtotal</td><td>${text(total)}</td></tr>
      <tr><td colspan="2">Total</td><td>${text(total)}</td></tr>
      <tr><td colspan="2">Amount due</td><td>${text(money(amountDue(document), document.currency))}</td></tr>
    </tfoot>
  </table>
  <p>${text(paymentLine(document))}</p>
  ${document.notice === null ? '' : `<p class="notice" role="note"><strong>No payment taken.</strong> ${text(document.notice)}</p>`}
</main>
</body>
</html>
`;
}

type Write = (
  face: InvoiceFace,
  text: string,
  x?: number,
  y?: number,
  options?: PDFKit.Mixins.TextOptions,
) => void;

/** Splits text into runs the face draws and runs it has no glyph for. */
function runs(text: string, face: EmbeddedFace): Array<{ text: string; covered: boolean }> {
  const result: Array<{ text: string; covered: boolean }> = [];
  for (const raw of text) {
    // a space the face lacks (U+3000, say) is still a space: the box font has none to draw
    const character = /\s/u.test(raw) && !face.covers(raw) ? ' ' : raw;
    const covered = face.covers(character);
    const last = result.at(-1);
    if (last !== undefined && last.covered === covered) last.text += character;
    else result.push({ text: character, covered });
  }
  return result;
}

/**
 * Draws text in the embedded face, switching to a box font (see invoice-fonts.ts) for the characters
 * the face lacks, as continued runs of one paragraph.
 */
function writer(pdf: PDFKit.PDFDocument, fonts: InvoiceFonts): Write {
  pdf.registerFont('regular', fonts.regular.data);
  pdf.registerFont('bold', fonts.bold.data);
  const boxFonts = new Map<string, string>();
  const boxFont = (text: string) => {
    const characters = [...new Set(text)].sort();
    const key = characters.join('');
    let name = boxFonts.get(key);
    if (name === undefined) {
      name = `missing-${boxFonts.size + 1}`;
      pdf.registerFont(name, missingGlyphFont(characters, fonts.metrics));
      boxFonts.set(key, name);
    }
    return name;
  };
  return (face, text, x, y, options = {}) => {
    // precomposed forms (NFC) are the ones fonts carry: "ặ" as one glyph, not "a" and two marks
    const parts = runs(text.normalize('NFC'), fonts[face]);
    if (parts.length === 0) parts.push({ text: '', covered: true });
    parts.forEach((part, index) => {
      const continued = index < parts.length - 1;
      pdf.font(part.covered ? face : boxFont(part.text));
      if (index === 0) pdf.text(part.text, x, y, { ...options, continued });
      else pdf.text(part.text, { ...options, continued });
    });
  };
}

/** An A4 PDF of the invoice, in embedded DejaVu Sans (see invoice-fonts.ts). */
export async function renderInvoicePdf(document: InvoiceDocument): Promise<Buffer> {
  const fonts = await invoiceFonts();
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 56,
    // metadata strings are written as UTF-16 when they need it: no font involved
    info: {
      Title: `Invoice ${document.number}`,
      Author: document.seller[0] ?? '',
      Subject: `${document.description}: ${money(document.amountMinor, document.currency)}`,
      Creator: 'rfckit',
    },
  });
  const chunks: Buffer[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const write = writer(pdf, fonts);

  const left = pdf.page.margins.left;
  const width = pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;
  const grey = '#495057';
  const total = money(document.amountMinor, document.currency);

  pdf.fontSize(24).fillColor('#1a1b1e');
  write('bold', `Invoice ${document.number}`, left);
  pdf.moveDown(0.2);
  pdf.fontSize(11).fillColor(grey);
  write('regular', `Status: ${STATUS_LABELS[document.status]}`);
  pdf.moveDown(1.2);

  // seller and buyer side by side
  const partiesTop = pdf.y;
  const column = (width - 24) / 2;
  const party = (heading: string, lines: readonly string[], x: number) => {
    pdf.fontSize(9).fillColor(grey);
    write('bold', heading.toUpperCase(), x, partiesTop, { width: column });
    pdf.fontSize(11).fillColor('#1a1b1e');
    for (const line of lines) write('regular', line, x, pdf.y, { width: column });
    return pdf.y;
  };
  const sellerBottom = party('From', document.seller, left);
  const buyerBottom = party('Bill to', document.buyer, left + column + 24);
  pdf.y = Math.max(sellerBottom, buyerBottom) + 18;

  const facts: Array<[string, string]> = [
    ['Invoice number', document.number],
    ['Invoice date', isoDay(document.issuedAt)],
    ['Service period', `${isoDay(document.periodStart)} to ${isoDay(document.periodEnd)}`],
    ...(document.paidAt === null ? [] : ([['Paid on', isoDay(document.paidAt)]] as Array<[string, string]>)),
  ];
  for (const [label, value] of facts) {
    const top = pdf.y;
    pdf.fontSize(11).fillColor(grey);
    write('regular', label, left, top, { width: 120 });
    pdf.fillColor('#1a1b1e');
    write('regular', value, left + 130, top, { width: width - 130 });
  }
  pdf.moveDown(1.2);

  // the one line and the totals
  const amountX = left + width - 120;
  const row = (cells: [string, string, string], bold = false) => {
    const top = pdf.y;
    const face = bold ? 'bold' : 'regular';
    pdf.fontSize(11).fillColor('#1a1b1e');
    write(face, cells[0], left, top, { width: width - 200 });
    const bottom = pdf.y;
    write(face, cells[1], left + width - 190, top, { width: 60 });
    write(face, cells[2], amountX, top, { width: 120, align: 'right' });
    pdf.y = Math.max(bottom, pdf.y) + 6;
  };
  const rule = () => {
    pdf
      .moveTo(left, pdf.y)
      .lineTo(left + width, pdf.y)
      .lineWidth(0.5)
      .strokeColor('#ced4da')
      .stroke();
    pdf.y += 6;
  };
  row(['Description', 'Quantity', 'Amount'], true);
  rule();
  row([document.description, '1', total]);
  rule();
  row(['Subtotal', '', total]);
  row(['Total', '', total], true);
  row(['Amount due', '', money(amountDue(document), document.currency)], true);
  pdf.moveDown(1);

  pdf.fontSize(11).fillColor('#1a1b1e');
  write('regular', paymentLine(document), left, pdf.y, { width });

  if (document.notice !== null) {
    pdf.moveDown(1.5);
    const top = pdf.y;
    const text = `No payment taken. ${document.notice}`;
    // the provider's notice is our own English text: the regular face measures it exactly
    pdf.font('regular').fontSize(11);
    const height = pdf.heightOfString(text, { width: width - 24 }) + 20;
    pdf.rect(left, top, width, height).lineWidth(1.5).fillAndStroke('#fff9db', '#e67700');
    pdf.fillColor('#1a1b1e');
    write('regular', text, left + 12, top + 10, { width: width - 24 });
  }

  pdf.end();
  return finished;
}
