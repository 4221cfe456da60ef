import { describe, expect, it } from 'vitest';
import {
  addPaymentMethodBody,
  billingStatusColour,
  cardDigits,
  cardNumberProblem,
  checkCardFields,
  cvvProblem,
  detectCardBrand,
  expiryProblem,
  formatCardExpiry,
  formatMinorUnits,
  isCardExpired,
  luhnValid,
  PAYMENT_CARD_MESSAGES,
  parseExpiryDate,
  updatePaymentMethodBody,
} from './payment-card.ts';

// Test numbers the payment networks' processors publish for integration testing (Stripe's
// "Testing" page, Braintree's sandbox list, Adyen's test cards): all pass the Luhn check.
const PUBLISHED_TEST_CARDS = [
  ['4242424242424242', 'visa'],
  ['4000056655665556', 'visa'],
  ['4111111111111111', 'visa'],
  ['4012888888881881', 'visa'],
  ['4222222222222', 'visa'],
  ['5555555555554444', 'mastercard'],
  ['5105105105105100', 'mastercard'],
  ['2223003122003222', 'mastercard'],
  ['5200828282828210', 'mastercard'],
  ['378282246310005', 'amex'],
  ['371449635398431', 'amex'],
  ['6011111111111117', 'discover'],
  ['6011000990139424', 'discover'],
  ['6011981111111113', 'discover'],
  ['3056930009020004', 'diners'],
  ['36227206271667', 'diners'],
  ['30569309025904', 'diners'],
  ['38520000023237', 'diners'],
  ['3566002020360505', 'jcb'],
  ['3530111333300000', 'jcb'],
  ['6200000000000005', 'unionpay'],
  ['6205500000000000004', 'unionpay'],
  ['6304000000000000', 'maestro'],
  ['6771798021000008', 'maestro'],
] as const;

describe('published test cards', () => {
  it.each(PUBLISHED_TEST_CARDS)('%s is a valid %s number', (number, brand) => {
    expect(luhnValid(number)).toBe(true);
    expect(detectCardBrand(number)).toBe(brand);
    expect(cardNumberProblem(number)).toBeNull();
  });
});

describe('luhnValid', () => {
  it.each([
    ['4242424242424241', false],
    ['4242424242424243', false],
    // two adjacent digits swapped: 42 → 24
    ['2442424242424242', false],
    ['79927398713', true],
    ['79927398710', false],
    ['0', true],
    ['', false],
    ['4242 4242 4242 4242', false],
    ['42424242424242a2', false],
  ])('%s → %s', (digits, valid) => {
    expect(luhnValid(digits)).toBe(valid);
  });
});

describe('detectCardBrand', () => {
  it.each([
    ['34', 'amex'],
    ['37', 'amex'],
    ['35', null],
    ['300', 'diners'],
    ['305', 'diners'],
    ['306', null],
    ['3095', 'diners'],
    ['3096', null],
    ['36', 'diners'],
    ['38', 'diners'],
    ['39', 'diners'],
    ['3527', null],
    ['3528', 'jcb'],
    ['3589', 'jcb'],
    ['3590', null],
    ['4', 'visa'],
    ['51', 'mastercard'],
    ['55', 'mastercard'],
    ['56', 'maestro'],
    ['2220', null],
    ['2221', 'mastercard'],
    ['2720', 'mastercard'],
    ['2721', null],
    ['6011', 'discover'],
    ['6012', null],
    ['643', null],
    ['644', 'discover'],
    ['649', 'discover'],
    ['65', 'discover'],
    ['62', 'unionpay'],
    ['622126', 'unionpay'],
    ['81', 'unionpay'],
    ['50', 'maestro'],
    ['5018', 'maestro'],
    ['58', 'maestro'],
    ['6304', 'maestro'],
    ['639', 'maestro'],
    ['6759', 'maestro'],
    ['1', null],
    ['9', null],
    ['', null],
  ])('IIN %s → %s', (prefix, brand) => {
    expect(detectCardBrand(prefix.padEnd(16, '0'))).toBe(brand);
  });
});

describe('cardNumberProblem', () => {
  it.each([
    ['4242 4242 4242 4242', null],
    ['4242-4242-4242-4242', null],
    [' 4242424242424242 ', null],
    ['', PAYMENT_CARD_MESSAGES.numberRequired],
    ['   ', PAYMENT_CARD_MESSAGES.numberRequired],
    ['4242.4242.4242.4242', PAYMENT_CARD_MESSAGES.numberCharacters],
    ['4242x4242', PAYMENT_CARD_MESSAGES.numberCharacters],
    ['42424242424', PAYMENT_CARD_MESSAGES.numberLength],
    ['42424242424242424242', PAYMENT_CARD_MESSAGES.numberLength],
    ['4242424242424241', PAYMENT_CARD_MESSAGES.numberLuhn],
    ['9999999999999995', PAYMENT_CARD_MESSAGES.brandUnsupported],
    ['37828224631000', 'American Express card numbers have 15 digits'],
    ['555555555555444', 'Mastercard card numbers have 16 digits'],
    ['42424242424242', 'Visa card numbers have 13, 16 or 19 digits'],
    ['3566002020360', 'JCB card numbers have 16 to 19 digits'],
  ])('%j → %s', (input, problem) => {
    expect(cardNumberProblem(input)).toBe(problem);
  });

  it('strips only separators', () => {
    expect(cardDigits('4242 4242-4242 4242')).toBe('4242424242424242');
  });
});

describe('expiry dates', () => {
  const now = new Date('2026-03-15T12:00:00Z');

  it.each([
    ['03/26', { month: 3, year: 2026 }],
    ['12/49', { month: 12, year: 2049 }],
    [' 01 / 30 ', { month: 1, year: 2030 }],
    ['1/30', 'format'],
    ['01/2030', 'format'],
    ['0130', 'format'],
    ['13/30', 'month'],
    ['00/30', 'month'],
  ])('parses %j', (input, expected) => {
    expect(parseExpiryDate(input)).toEqual(expected);
  });

  it('counts a card as good through the last day of its expiry month (UTC)', () => {
    expect(isCardExpired({ month: 3, year: 2026 }, now)).toBe(false);
    expect(isCardExpired({ month: 3, year: 2026 }, new Date('2026-03-31T23:59:59.999Z'))).toBe(false);
    expect(isCardExpired({ month: 3, year: 2026 }, new Date('2026-04-01T00:00:00Z'))).toBe(true);
    expect(isCardExpired({ month: 2, year: 2026 }, now)).toBe(true);
    expect(isCardExpired({ month: 12, year: 2025 }, now)).toBe(true);
    expect(isCardExpired({ month: 1, year: 2027 }, now)).toBe(false);
  });

  it.each([
    ['03/26', null],
    ['', PAYMENT_CARD_MESSAGES.expiryRequired],
    ['3/26', PAYMENT_CARD_MESSAGES.expiryFormat],
    ['13/26', PAYMENT_CARD_MESSAGES.expiryMonth],
    ['02/26', PAYMENT_CARD_MESSAGES.expired],
    ['12/46', null],
    ['01/47', PAYMENT_CARD_MESSAGES.expiryTooFar],
  ])('%j → %s', (input, problem) => {
    expect(expiryProblem(input, now)).toBe(problem);
  });

  it('formats as printed on the card', () => {
    expect(formatCardExpiry({ month: 4, year: 2031 })).toBe('04/31');
  });
});

describe('cvvProblem', () => {
  it.each([
    ['123', '4242424242424242', null],
    ['1234', '378282246310005', null],
    ['123', '378282246310005', PAYMENT_CARD_MESSAGES.cvv4],
    ['1234', '4242424242424242', PAYMENT_CARD_MESSAGES.cvv3],
    ['12a', '4242424242424242', PAYMENT_CARD_MESSAGES.cvv3],
    ['12', '5555555555554444', PAYMENT_CARD_MESSAGES.cvv3],
    ['', '4242424242424242', PAYMENT_CARD_MESSAGES.cvvRequired],
    ['123', '', null],
    ['1234', '9999', null],
    ['12', '', PAYMENT_CARD_MESSAGES.cvv3or4],
  ])('%j for %j → %s', (cvv, number, problem) => {
    expect(cvvProblem(cvv, number)).toBe(problem);
  });
});

describe('checkCardFields', () => {
  const now = new Date('2026-03-15T12:00:00Z');

  it('reports every field that has a problem, and none for a good card', () => {
    expect(
      checkCardFields(
        {
          cardholderName: 'Ada Lovelace',
          cardNumber: '4242 4242 4242 4242',
          expiryDate: '12/30',
          cvv: '123',
        },
        now,
      ),
    ).toEqual({});
    expect(
      checkCardFields(
        { cardholderName: '', cardNumber: '4242424242424241', expiryDate: '01/26', cvv: '1' },
        now,
      ),
    ).toEqual({
      cardholderName: PAYMENT_CARD_MESSAGES.nameRequired,
      cardNumber: PAYMENT_CARD_MESSAGES.numberLuhn,
      expiryDate: PAYMENT_CARD_MESSAGES.expired,
      cvv: PAYMENT_CARD_MESSAGES.cvv3,
    });
    expect(
      checkCardFields(
        { cardholderName: 'Bad\u0007Name', cardNumber: '4242424242424242', expiryDate: '12/30', cvv: '123' },
        now,
      ),
    ).toEqual({ cardholderName: PAYMENT_CARD_MESSAGES.nameInvalid });
  });
});

describe('addPaymentMethodBody', () => {
  const good = {
    cardholderName: 'Ada Lovelace',
    cardNumber: '4242424242424242',
    expiryDate: '12/45',
    cvv: '123',
  };

  function firstMessage(body: unknown): string | undefined {
    const result = addPaymentMethodBody.safeParse(body);
    return result.success ? undefined : result.error.issues[0]?.message;
  }

  it('accepts a good card', () => {
    expect(addPaymentMethodBody.safeParse(good).success).toBe(true);
  });

  it.each([
    [{ ...good, cvv: '' }, PAYMENT_CARD_MESSAGES.allRequired],
    [
      { cardholderName: 'Ada', cardNumber: '4242424242424242', expiryDate: '12/45' },
      PAYMENT_CARD_MESSAGES.allRequired,
    ],
    [{ ...good, cardholderName: '   ' }, PAYMENT_CARD_MESSAGES.allRequired],
    [{ ...good, cardNumber: '4242424242424241' }, PAYMENT_CARD_MESSAGES.numberLuhn],
    [{ ...good, expiryDate: '01/20' }, PAYMENT_CARD_MESSAGES.expired],
    [{ ...good, expiryDate: '2045-12' }, PAYMENT_CARD_MESSAGES.expiryFormat],
    [{ ...good, cardNumber: '378282246310005' }, PAYMENT_CARD_MESSAGES.cvv4],
    [{ ...good, cardholderName: 'x'.repeat(101) }, PAYMENT_CARD_MESSAGES.nameTooLong],
  ])('refuses %j with %s', (body, message) => {
    expect(firstMessage(body)).toBe(message);
  });

  it('refuses unknown fields and never repeats the number in a message', () => {
    const result = addPaymentMethodBody.safeParse({ ...good, cardNumber: '4242424242424241', extra: 1 });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues.map((issue) => issue.message))).not.toContain(
      '4242424242424241',
    );
  });
});

describe('updatePaymentMethodBody', () => {
  it('takes a default flag or a current expiry date', () => {
    expect(updatePaymentMethodBody.safeParse({ isDefault: true }).success).toBe(true);
    expect(updatePaymentMethodBody.safeParse({ expiryDate: '12/45' }).success).toBe(true);
    expect(updatePaymentMethodBody.safeParse({}).success).toBe(false);
    expect(updatePaymentMethodBody.safeParse({ isDefault: false }).success).toBe(false);
    expect(updatePaymentMethodBody.safeParse({ expiryDate: '01/20' }).error?.issues[0]?.message).toBe(
      PAYMENT_CARD_MESSAGES.expired,
    );
  });
});

describe('billingStatusColour (spec part 1 §4)', () => {
  it.each([
    ['active', 'green'],
    ['Paid', 'green'],
    ['overdue', 'red'],
    ['pending', 'yellow'],
    ['canceled', 'gray'],
    ['void', 'gray'],
    ['', 'gray'],
  ])('%s → %s', (status, colour) => {
    expect(billingStatusColour(status)).toBe(colour);
  });
});

describe('formatMinorUnits', () => {
  it.each([
    [4999, 'USD', '49.99'],
    [0, 'USD', '0.00'],
    [5, 'EUR', '0.05'],
    [-1250, 'USD', '-12.50'],
    [500, 'JPY', '500'],
    [1234, 'KWD', '1.234'],
  ])('%d %s → %s', (amount, currency, text) => {
    expect(formatMinorUnits(amount, currency)).toBe(text);
  });
});
