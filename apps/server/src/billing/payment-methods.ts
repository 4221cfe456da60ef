import {
  type AddPaymentMethodBody,
  cardDigits,
  formatCardExpiry,
  parseExpiryDate,
  type UpdatePaymentMethodBody,
} from '@rfckit/standards';
import { newId } from '../db/ids.ts';
import {
  countPaymentMethods,
  deletePaymentMethod,
  findDefaultPaymentMethod,
  findPaymentMethod,
  insertPaymentMethod,
  listPaymentMethods,
  type PaymentMethod,
  setDefaultPaymentMethod,
  updatePaymentMethodExpiry,
} from '../db/payment-methods.ts';
import { HttpError } from '../plugins/errors.ts';
import { type Actor, audit, type BillingContext, planOf } from './context.ts';
import { BILLING_MESSAGES, cardLabel, MAX_PAYMENT_METHODS } from './messages.ts';
import { retryOverdue, settle } from './subscriptions.ts';

export async function addPaymentMethod(
  context: BillingContext,
  organisationId: string,
  body: AddPaymentMethodBody,
  actor: Actor,
): Promise<PaymentMethod> {
  if ((await countPaymentMethods(context.db, organisationId)) >= MAX_PAYMENT_METHODS) {
    throw new HttpError(409, 'TOO_MANY_PAYMENT_METHODS', BILLING_MESSAGES.tooManyCards);
  }
  const expiry = parseExpiryDate(body.expiryDate);
  // the schema checked it already: this only narrows the type
  if (typeof expiry === 'string')
    throw new HttpError(400, 'VALIDATION_ERROR', 'Expiry date must be in MM/YY format');
  const subscription = await settle(context, organisationId);
  const providerCard = await context.provider.addCard({
    cardholderName: body.cardholderName.trim(),
    number: cardDigits(body.cardNumber),
    expiryMonth: expiry.month,
    expiryYear: expiry.year,
    cvv: body.cvv,
  });
  const hadDefault = (await findDefaultPaymentMethod(context.db, organisationId)) !== undefined;
  // a card added while an invoice is overdue is meant to pay it
  const makeDefault = !hadDefault || subscription.status === 'past_due';
  const now = context.now();
  const row: PaymentMethod = {
    id: newId(),
    organisation_id: organisationId,
    type: 'card',
    brand: providerCard.brand,
    last4: providerCard.last4,
    expiry_month: providerCard.expiryMonth,
    expiry_year: providerCard.expiryYear,
    cardholder_name: body.cardholderName.trim(),
    is_default: 0,
    provider_ref: providerCard.providerRef,
    created_at: now.toISOString(),
  };
  await context.db.transaction().execute(async (trx) => {
    await insertPaymentMethod(trx, row);
    if (makeDefault) await setDefaultPaymentMethod(trx, organisationId, row.id);
    await audit(
      trx,
      organisationId,
      actor,
      'create',
      `Payment method added: ${cardLabel(row)}, expires ${formatCardExpiry({ month: row.expiry_month, year: row.expiry_year })}${
        makeDefault ? ', now the default' : ''
      }`,
    );
  });
  if (makeDefault) await retryOverdue(context, organisationId, actor);
  return (await findPaymentMethod(context.db, organisationId, row.id)) ?? row;
}

export async function updatePaymentMethod(
  context: BillingContext,
  organisationId: string,
  id: string,
  body: UpdatePaymentMethodBody,
  actor: Actor,
): Promise<{ message: string; paymentMethod: PaymentMethod }> {
  const card = await cardOf(context, organisationId, id);
  const messages: string[] = [];
  const expiry = body.expiryDate === undefined ? undefined : parseExpiryDate(body.expiryDate);
  if (typeof expiry === 'string')
    throw new HttpError(400, 'VALIDATION_ERROR', 'Expiry date must be in MM/YY format');
  const expiryChanges =
    expiry !== undefined && (expiry.month !== card.expiry_month || expiry.year !== card.expiry_year);
  const defaultChanges = body.isDefault === true && card.is_default !== 1;
  if (expiryChanges) await context.provider.updateCardExpiry(card.provider_ref, expiry);
  await context.db.transaction().execute(async (trx) => {
    if (expiryChanges) {
      await updatePaymentMethodExpiry(trx, organisationId, id, expiry);
      const from = formatCardExpiry({ month: card.expiry_month, year: card.expiry_year });
      await audit(
        trx,
        organisationId,
        actor,
        'update',
        `Expiry date of ${cardLabel(card)} changed from ${from} to ${formatCardExpiry(expiry)}`,
      );
      messages.push(BILLING_MESSAGES.expiryChanged);
    }
    if (defaultChanges) {
      await setDefaultPaymentMethod(trx, organisationId, id);
      await audit(
        trx,
        organisationId,
        actor,
        'update',
        `Default payment method changed to ${cardLabel(card)}`,
      );
      messages.push(BILLING_MESSAGES.defaultChanged);
    }
  });
  if (expiryChanges || defaultChanges) await retryOverdue(context, organisationId, actor);
  const updated = await cardOf(context, organisationId, id);
  return {
    message: messages.length > 0 ? messages.join(' ') : BILLING_MESSAGES.cardUnchanged,
    paymentMethod: updated,
  };
}

export async function removePaymentMethod(
  context: BillingContext,
  organisationId: string,
  id: string,
  actor: Actor,
): Promise<string> {
  const card = await cardOf(context, organisationId, id);
  const subscription = await settle(context, organisationId);
  const plan = await planOf(context, subscription.plan_id);
  const cards = await listPaymentMethods(context.db, organisationId);
  if (cards.length === 1 && plan.price_minor > 0 && subscription.canceled_at === null) {
    throw new HttpError(409, 'LAST_PAYMENT_METHOD', BILLING_MESSAGES.lastCard(plan.name));
  }
  await context.provider.removeCard(card.provider_ref);
  // the newest other card takes over as default
  const successor = card.is_default === 1 ? cards.find((other) => other.id !== card.id) : undefined;
  await context.db.transaction().execute(async (trx) => {
    await deletePaymentMethod(trx, organisationId, id);
    if (successor !== undefined) await setDefaultPaymentMethod(trx, organisationId, successor.id);
    await audit(
      trx,
      organisationId,
      actor,
      'delete',
      `Payment method removed: ${cardLabel(card)}${successor === undefined ? '' : `; ${cardLabel(successor)} is now the default`}`,
    );
  });
  return BILLING_MESSAGES.cardRemoved;
}

async function cardOf(context: BillingContext, organisationId: string, id: string): Promise<PaymentMethod> {
  const card = await findPaymentMethod(context.db, organisationId, id);
  if (card === undefined) throw new HttpError(404, 'NOT_FOUND', BILLING_MESSAGES.paymentMethodNotFound);
  return card;
}
