/**
 * Payment-card checks and the billing request schemas, shared by the server's billing routes and
 * the web app's card form, so both refuse a card for the same reason with the same words (the
 * form shows them as the user types). Pure: no I/O, runs in the browser and in Node.
 *
 * Only the checks a card form can make offline live here: digits, length, the Luhn check digit
 * (ISO/IEC 7812-1 Annex B), the brand from the issuer identification number (IIN) ranges the card
 * networks publish, the expiry date and the CVV's length. Whether a card can actually be charged
 * is the payment provider's answer.
 */
import { z } from 'zod';

import { ACCOUNT_MESSAGES, NAME_MAX } from './schema.ts';

export const CARD_BRANDS = [
  'visa',
  'mastercard',
  'amex',
  'discover',
  'diners',
  'jcb',
  'unionpay',
  'maestro',
] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export const CARD_BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
};

/** ISO/IEC 7812 allows 8 to 19 digits; no network issues fewer than 12 for cards. */
export const CARD_NUMBER_MIN = 12;
export const CARD_NUMBER_MAX = 19;
/** A typed number with spaces or hyphens between groups stays well under this. */
export const CARD_NUMBER_INPUT_MAX = 40;
export const EXPIRY_INPUT_MAX = 10;
/** Cards are issued for at most a few years; anything beyond this is a typing error. */
export const EXPIRY_YEARS_AHEAD = 20;

export const PAYMENT_CARD_MESSAGES = {
  allRequired: ACCOUNT_MESSAGES.allRequired,
  nameRequired: 'Cardholder name is required',
  nameTooLong: `Cardholder name must be at most ${NAME_MAX} characters`,
  nameInvalid: 'Cardholder name must not contain control characters',
  numberRequired: 'Card number is required',
  numberCharacters: 'Card number must contain only digits (spaces and hyphens between groups are fine)',
  numberLength: `Card number must be ${CARD_NUMBER_MIN} to ${CARD_NUMBER_MAX} digits long`,
  numberLuhn: 'Card number is not valid: please check it for typing errors',
  brandUnsupported:
    'This card type is not supported. We accept Visa, Mastercard, American Express, Discover, Diners Club, JCB, UnionPay and Maestro.',
  expiryRequired: 'Expiry date is required',
  expiryFormat: 'Expiry date must be in MM/YY format',
  expiryMonth: 'Expiry month must be between 01 and 12',
  expired: 'This card has expired',
  expiryTooFar: `Expiry date must be within ${EXPIRY_YEARS_AHEAD} years`,
  cvvRequired: 'CVV is required',
  cvv3: 'CVV must be 3 digits',
  cvv4: 'CVV must be 4 digits for American Express',
  cvv3or4: 'CVV must be 3 or 4 digits',
} as const;

interface BrandRule {
  brand: CardBrand;
  /** Inclusive IIN ranges, compared on as many leading digits as their bounds have. */
  ranges: ReadonlyArray<readonly [string, string]>;
  lengths: readonly number[];
  cvvLength: number;
}

const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/**
 * The networks' published IIN ranges. Order matters where ranges nest: the first match wins, so
 * narrower prefixes (Diners' 36, UnionPay's 62) come before broader ones (Maestro's 6).
 */
const BRAND_RULES: readonly BrandRule[] = [
  {
    brand: 'amex',
    ranges: [
      ['34', '34'],
      ['37', '37'],
    ],
    lengths: [15],
    cvvLength: 4,
  },
  {
    brand: 'diners',
    ranges: [
      ['300', '305'],
      ['3095', '3095'],
      ['36', '36'],
      ['38', '39'],
    ],
    lengths: span(14, 19),
    cvvLength: 3,
  },
  { brand: 'jcb', ranges: [['3528', '3589']], lengths: span(16, 19), cvvLength: 3 },
  { brand: 'visa', ranges: [['4', '4']], lengths: [13, 16, 19], cvvLength: 3 },
  // the 2-series (2221-2720) was added in 2017
  {
    brand: 'mastercard',
    ranges: [
      ['51', '55'],
      ['2221', '2720'],
    ],
    lengths: [16],
    cvvLength: 3,
  },
  {
    brand: 'discover',
    ranges: [
      ['6011', '6011'],
      ['644', '649'],
      ['65', '65'],
    ],
    lengths: span(16, 19),
    cvvLength: 3,
  },
  // 622126-622925 are UnionPay cards that Discover's network also accepts: the issuer is UnionPay
  {
    brand: 'unionpay',
    ranges: [
      ['62', '62'],
      ['81', '81'],
    ],
    lengths: span(16, 19),
    cvvLength: 3,
  },
  {
    brand: 'maestro',
    ranges: [
      ['50', '50'],
      ['56', '58'],
      ['6304', '6304'],
      ['639', '639'],
      ['67', '67'],
    ],
    lengths: span(12, 19),
    cvvLength: 3,
  },
];

function ruleOf(digits: string): BrandRule | undefined {
  return BRAND_RULES.find((rule) =>
    rule.ranges.some(([low, high]) => {
      const prefix = digits.slice(0, low.length);
      return prefix.length === low.length && prefix >= low && prefix <= high;
    }),
  );
}

/** The digits of a typed card number: spaces and hyphens between groups removed. */
export function cardDigits(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** The Luhn (mod 10) check of ISO/IEC 7812-1 Annex B over a string of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The card's network from its leading digits, or null when no supported network issues them. */
export function detectCardBrand(digits: string): CardBrand | null {
  return ruleOf(digits)?.brand ?? null;
}

/** How many digits the CVV of a brand has (4 on the front of an American Express card, else 3). */
export function cvvLengthOf(brand: CardBrand): number {
  return BRAND_RULES.find((rule) => rule.brand === brand)?.cvvLength ?? 3;
}

export interface CardExpiry {
  /** 1-12. */
  month: number;
  /** Four digits. */
  year: number;
}

export type ExpiryProblem = 'format' | 'month';

/** Reads `MM/YY` (spaces around the slash allowed); YY is 20YY. */
export function parseExpiryDate(input: string): CardExpiry | ExpiryProblem {
  const match = /^\s*(\d{2})\s*\/\s*(\d{2})\s*$/.exec(input);
  if (!match) return 'format';
  const month = Number(match[1]);
  if (month < 1 || month > 12) return 'month';
  return { month, year: 2000 + Number(match[2]) };
}

/** `MM/YY`, as printed on the card. */
export function formatCardExpiry(expiry: CardExpiry): string {
  return `${String(expiry.month).padStart(2, '0')}/${String(expiry.year % 100).padStart(2, '0')}`;
}

/**
 * Whether the card has expired at `now`. A card is good through the last day of its expiry month;
 * the month is compared in UTC so that browser and server agree.
 */
export function isCardExpired(expiry: CardExpiry, now: Date = new Date()): boolean {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return expiry.year < year || (expiry.year === year && expiry.month < month);
}

function expiryTooFar(expiry: CardExpiry, now: Date): boolean {
  return expiry.year > now.getUTCFullYear() + EXPIRY_YEARS_AHEAD;
}

/** The problem with an expiry date, or null when it is a valid, current `MM/YY`. */
export function expiryProblem(input: string, now: Date = new Date()): string | null {
  if (input.trim() === '') return PAYMENT_CARD_MESSAGES.expiryRequired;
  const parsed = parseExpiryDate(input);
  if (parsed === 'format') return PAYMENT_CARD_MESSAGES.expiryFormat;
  if (parsed === 'month') return PAYMENT_CARD_MESSAGES.expiryMonth;
  if (isCardExpired(parsed, now)) return PAYMENT_CARD_MESSAGES.expired;
  if (expiryTooFar(parsed, now)) return PAYMENT_CARD_MESSAGES.expiryTooFar;
  return null;
}

function listLengths(lengths: readonly number[]): string {
  const first = lengths[0] ?? 0;
  const last = lengths.at(-1) ?? 0;
  const contiguous = lengths.every((length, index) => length === first + index);
  if (lengths.length === 1) return String(first);
  if (contiguous) return `${first} to ${last}`;
  return `${lengths.slice(0, -1).join(', ')} or ${last}`;
}

/** The problem with a card number, or null when it is one a supported network could have issued. */
export function cardNumberProblem(input: string): string | null {
  if (input.trim() === '') return PAYMENT_CARD_MESSAGES.numberRequired;
  if (input.length > CARD_NUMBER_INPUT_MAX) return PAYMENT_CARD_MESSAGES.numberLength;
  const digits = cardDigits(input);
  if (!/^\d+$/.test(digits)) return PAYMENT_CARD_MESSAGES.numberCharacters;
  if (digits.length < CARD_NUMBER_MIN || digits.length > CARD_NUMBER_MAX)
    return PAYMENT_CARD_MESSAGES.numberLength;
  const rule = ruleOf(digits);
  if (rule === undefined) return PAYMENT_CARD_MESSAGES.brandUnsupported;
  if (!rule.lengths.includes(digits.length)) {
    return `${CARD_BRAND_NAMES[rule.brand]} card numbers have ${listLengths(rule.lengths)} digits`;
  }
  if (!luhnValid(digits)) return PAYMENT_CARD_MESSAGES.numberLuhn;
  return null;
}

/** The problem with a CVV, judged against the brand the card number shows (3 or 4 digits if unknown). */
export function cvvProblem(input: string, cardNumber: string): string | null {
  if (input.trim() === '') return PAYMENT_CARD_MESSAGES.cvvRequired;
  const brand = detectCardBrand(cardDigits(cardNumber));
  if (brand === null) return /^\d{3,4}$/.test(input) ? null : PAYMENT_CARD_MESSAGES.cvv3or4;
  const length = cvvLengthOf(brand);
  if (input.length === length && /^\d+$/.test(input)) return null;
  return length === 4 ? PAYMENT_CARD_MESSAGES.cvv4 : PAYMENT_CARD_MESSAGES.cvv3;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what it finds
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export function cardholderNameProblem(input: string): string | null {
  if (input.trim() === '') return PAYMENT_CARD_MESSAGES.nameRequired;
  if (input.length > NAME_MAX) return PAYMENT_CARD_MESSAGES.nameTooLong;
  if (!input.isWellFormed() || CONTROL_CHARACTERS.test(input)) return PAYMENT_CARD_MESSAGES.nameInvalid;
  return null;
}

/** The new-card form (spec part 1 §3): cardholderName, cardNumber, expiryDate (MM/YY), cvv. */
export interface CardFormValues {
  cardholderName: string;
  cardNumber: string;
  expiryDate: string;
  cvv: string;
}

export const CARD_FIELDS = ['cardholderName', 'cardNumber', 'expiryDate', 'cvv'] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** One message per field that has a problem, for the form's live feedback. */
export function checkCardFields(
  values: CardFormValues,
  now: Date = new Date(),
): Partial<Record<CardField, string>> {
  const problems: Partial<Record<CardField, string | null>> = {
    cardholderName: cardholderNameProblem(values.cardholderName),
    cardNumber: cardNumberProblem(values.cardNumber),
    expiryDate: expiryProblem(values.expiryDate, now),
    cvv: cvvProblem(values.cvv, values.cardNumber),
  };
  const found: Partial<Record<CardField, string>> = {};
  for (const field of CARD_FIELDS) {
    const problem = problems[field];
    if (problem !== null && problem !== undefined) found[field] = problem;
  }
  return found;
}

const required = {
  error: (issue: { input: unknown }) =>
    issue.input === undefined ? ACCOUNT_MESSAGES.allRequired : undefined,
};

/**
 * `POST /v1/billing/payment-methods`. All four fields required (spec part 1 §5), then each field
 * in form order. The messages never repeat what was typed, so a refusal cannot echo a card number.
 */
export const addPaymentMethodBody = z
  .strictObject({
    cardholderName: z.string(required).max(NAME_MAX, PAYMENT_CARD_MESSAGES.nameTooLong),
    cardNumber: z.string(required).max(CARD_NUMBER_INPUT_MAX, PAYMENT_CARD_MESSAGES.numberLength),
    expiryDate: z.string(required).max(EXPIRY_INPUT_MAX, PAYMENT_CARD_MESSAGES.expiryFormat),
    cvv: z.string(required).max(8, PAYMENT_CARD_MESSAGES.cvv3or4),
  })
  .superRefine((body, ctx) => {
    if (CARD_FIELDS.some((field) => body[field].trim() === '')) {
      ctx.addIssue({ code: 'custom', message: PAYMENT_CARD_MESSAGES.allRequired });
      return;
    }
    const problems = checkCardFields(body);
    for (const field of CARD_FIELDS) {
      const message = problems[field];
      if (message !== undefined) ctx.addIssue({ code: 'custom', message, path: [field] });
    }
  })
  .describe('A new card. Only its brand, last four digits, expiry and cardholder name are kept.');
export type AddPaymentMethodBody = z.infer<typeof addPaymentMethodBody>;

export const PAYMENT_METHOD_UPDATE_MESSAGES = {
  nothingToChange: 'Send isDefault: true or a new expiryDate',
} as const;

/** `PUT /v1/billing/payment-methods/:id`: make it the default card, or record a new expiry date. */
export const updatePaymentMethodBody = z
  .strictObject({
    isDefault: z
      .literal(true, { error: 'isDefault can only be true: make another card the default instead' })
      .optional(),
    expiryDate: z.string().max(EXPIRY_INPUT_MAX, PAYMENT_CARD_MESSAGES.expiryFormat).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.isDefault === undefined && body.expiryDate === undefined) {
      ctx.addIssue({ code: 'custom', message: PAYMENT_METHOD_UPDATE_MESSAGES.nothingToChange });
      return;
    }
    if (body.expiryDate !== undefined) {
      const problem = expiryProblem(body.expiryDate);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem, path: ['expiryDate'] });
    }
  });
export type UpdatePaymentMethodBody = z.infer<typeof updatePaymentMethodBody>;

/** `PUT /v1/billing/subscription`. */
export const changeSubscriptionBody = z.strictObject({
  planId: z
    .string({ error: (issue) => (issue.input === undefined ? 'planId is required' : undefined) })
    .min(1, 'planId is required')
    .max(50, 'planId must be at most 50 characters')
    .regex(/^[a-z0-9-]+$/, 'planId must be a plan id such as free or professional'),
});
export type ChangeSubscriptionBody = z.infer<typeof changeSubscriptionBody>;

/**
 * The colour of a subscription or invoice status (spec part 1 §4): active or paid green, overdue
 * red, pending yellow, anything else grey. Takes the status as the screen names it.
 */
export function billingStatusColour(status: string): 'green' | 'red' | 'yellow' | 'gray' {
  switch (status.toLowerCase()) {
    case 'active':
    case 'paid':
      return 'green';
    case 'overdue':
      return 'red';
    case 'pending':
      return 'yellow';
    default:
      return 'gray';
  }
}

/** Money in minor units as a decimal string in the currency's usual precision: 4999 USD → "49.99". */
export function formatMinorUnits(amountMinor: number, currency: string): string {
  const digits = currencyDigits(currency);
  const negative = amountMinor < 0;
  const absolute = Math.abs(amountMinor);
  if (digits === 0) return `${negative ? '-' : ''}${absolute}`;
  const scale = 10 ** digits;
  const whole = Math.floor(absolute / scale);
  const fraction = String(absolute % scale).padStart(digits, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** ISO 4217 minor-unit digits for the currencies a plan may be priced in (2 for all others). */
export function currencyDigits(currency: string): number {
  const upper = currency.toUpperCase();
  if (['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'XAF', 'XOF'].includes(upper)) return 0;
  if (['BHD', 'KWD', 'OMR', 'JOD', 'TND', 'LYD', 'IQD'].includes(upper)) return 3;
  return 2;
}
