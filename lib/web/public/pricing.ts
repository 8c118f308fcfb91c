import type { Db } from '../../db/client';
import { listPublicPlans, plansOn, type Plan } from '../../plans';

// How the pricing and sign-up pages word a plan: prices as people compare them ("$9 / month",
// "$0 forever"), limits as words. The plan list itself is lib/plans/index.ts.

/** A price as shown: the amount ("$9", "$0", "$9.50") and what it is for ("/ month", "forever"). */
export interface PriceLabel {
  amount: string;
  period: string;
}

/** An amount in minor units in its currency, without the minor digits when there are none. */
export function formatMoney(minorUnits: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const whole = minorUnits % 10 ** digits === 0;
  return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: whole ? 0 : digits, maximumFractionDigits: digits }).format(
    minorUnits / 10 ** digits,
  );
}

export function priceLabel(price: Plan['price']): PriceLabel {
  const amount = formatMoney(price.amount, price.currency);
  if (price.amount === 0) return { amount, period: 'forever' };
  return { amount, period: price.interval ? `/ ${price.interval}` : 'once' };
}

/** A price in one line: "$9 / month", "$0 forever". */
export const priceText = (label: PriceLabel): string => `${label.amount} ${label.period}`;

const limitNames: Record<string, string> = {
  history_days: 'History',
  api_tokens: 'API tokens',
  badges: 'Badges',
  team_members: 'Team members',
  private_leaderboards: 'Private leaderboards',
};

export function limitValue(name: string, value: number | boolean | null | undefined): string {
  if (value === null || value === undefined) return 'Unlimited';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (name !== 'history_days') return String(value);
  return value % 365 === 0 ? `${value / 365} year${value === 365 ? '' : 's'}` : `${value} days`;
}

export interface PlanView {
  id: string;
  name: string;
  description: string;
  price: PriceLabel;
  free: boolean;
  features: string[];
  highlighted: boolean;
}

export interface PricingView {
  plans: PlanView[];
  /** The comparison table: one row per limit any plan names, one value per plan in `plans` order. */
  compare: { name: string; values: string[] }[];
}

function planView(p: Plan): PlanView {
  return { id: p.id, name: p.name, description: p.description, price: priceLabel(p.price), free: p.price.amount === 0, features: p.features, highlighted: p.highlighted };
}

/** The pricing page: the listed plans, side by side. */
export function pricingView(plans: Plan[]): PricingView {
  const limits = [...new Set(plans.flatMap((p) => Object.keys(p.limits)))];
  return {
    plans: plans.map(planView),
    compare: [
      { name: 'Price', values: plans.map((p) => priceText(priceLabel(p.price))) },
      ...limits.map((l) => ({ name: limitNames[l] ?? l, values: plans.map((p) => limitValue(l, p.limits[l as keyof Plan['limits']])) })),
    ],
  };
}

/**
 * The listed plan a visitor chose on the pricing page (`/signup?plan=<id>`), or null for anything
 * else: no plan, an unknown or unlisted id, a repeated parameter, plans off.
 */
export async function chosenPlan(db: Db, id: unknown): Promise<PlanView | null> {
  // With plans off there is nothing to choose: every account has all of it.
  if (typeof id !== 'string' || id === '' || !plansOn()) return null;
  const plan = (await listPublicPlans(db)).find((p) => p.id === id);
  return plan ? planView(plan) : null;
}
