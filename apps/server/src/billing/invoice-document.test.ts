import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { type InvoiceDocument, renderInvoicePdf } from './invoice-document.ts';

function invoice(overrides: Partial<InvoiceDocument>): InvoiceDocument {
  return {
    number: 'INV-20260101-ABC123',
    status: 'open',
    issuedAt: '2026-01-01T00:00:00.000Z',
    paidAt: null,
    periodStart: '2026-01-01T00:00:00.000Z',
    periodEnd: '2026-02-01T00:00:00.000Z',
    description: 'Professional plan',
    amountMinor: 123456,
    currency: 'EUR',
    paymentSummary: null,
    seller: ['Example Billing Ltd'],
    buyer: ['Acme Ltd'],
    notice: null,
    ...overrides,
  };
}

/** The text pdf.js reads (through each font's ToUnicode map), line breaks as spaces. */
async function text(bytes: Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(pdf, { mergePages: true })).text.replace(/\s+/g, ' ');
}

describe('renderInvoicePdf', () => {
  it('keeps the amount and currency formatting', async () => {
    const read = await text(await renderInvoicePdf(invoice({})));
    expect(read).toContain('Total 1234.56 EUR');
    expect(read).toContain('Amount due 1234.56 EUR');
  });

  it('writes scripts DejaVu lacks (Hangul, Thai, Devanagari, CJK) as their real characters', async () => {
    const names = ['서울 주식회사', 'บริษัท จำกัด', 'नमस्ते', '北京有限公司'];
    const bytes = await renderInvoicePdf(invoice({ buyer: names, description: '北京 Professional plan' }));
    const read = await text(bytes);
    for (const name of names) expect(read).toContain(name);
    expect(read).toContain('北京 Professional plan');
    // document properties are UTF-16 strings, no font involved
    const { info } = await (await getDocumentProxy(new Uint8Array(bytes))).getMetadata();
    expect(info).toMatchObject({
      Title: 'Invoice INV-20260101-ABC123',
      Subject: '北京 Professional plan: 1234.56 EUR',
    });
    expect(read).not.toMatch(/[?\uFFFD]/);
    expect(read).not.toContain('\u0000');
  });

  it('draws decomposed accents as the composed characters the font has', async () => {
    // "Ðặng Thị" typed with combining marks, as some keyboards and macOS file names produce it
    const decomposed = 'Ðặng Thị'.normalize('NFD');
    expect(decomposed).not.toBe('Ðặng Thị');
    const read = await text(await renderInvoicePdf(invoice({ buyer: [decomposed] })));
    expect(read).toContain('Ðặng Thị');
  });

  it('keeps an ideographic space a space between CJK and Latin text', async () => {
    const read = await text(await renderInvoicePdf(invoice({ buyer: ['東京\u3000Tower 5'] })));
    expect(read).toMatch(/東京\s*Tower 5/);
    expect(read).not.toMatch(/[?\uFFFD]/);
    expect(read).not.toContain('\u0000');
  });
});
