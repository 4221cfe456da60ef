import type { Kysely, Selectable } from 'kysely';
import type { Database, PlanTable } from './schema.ts';

export type Plan = Selectable<PlanTable>;

/** The plans an organisation can choose, in the order the screen shows them. */
export function listActivePlans(db: Kysely<Database>): Promise<Plan[]> {
  return db
    .selectFrom('plan')
    .selectAll()
    .where('active', '=', 1)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

/** Any plan, chosen or retired (a subscription may still be on a retired one). */
export function findPlanById(db: Kysely<Database>, id: string): Promise<Plan | undefined> {
  return db.selectFrom('plan').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The free plan new organisations start on: the cheapest active plan that costs nothing. */
export function findFreePlan(db: Kysely<Database>): Promise<Plan | undefined> {
  return db
    .selectFrom('plan')
    .selectAll()
    .where('active', '=', 1)
    .where('price_minor', '=', 0)
    .orderBy('sort_order')
    .executeTakeFirst();
}

/** The features column, a JSON array of lines. */
export function planFeatures(plan: Plan): string[] {
  const parsed: unknown = JSON.parse(plan.features);
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
}
