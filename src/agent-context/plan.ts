import type { Entity } from '../entities/dataset.js';

/** What a goal plan is: its category, the fetches that answer it and the decision recipe. */
export const GOAL_CATEGORIES = [
  'security_scan',
  'contract_check',
  'defi_yield',
  'weather_impact',
  'portfolio_risk',
  'buy_crypto',
  'sell_crypto',
  'stock_decision',
  'news_brief',
] as const;
export type GoalCategory = (typeof GOAL_CATEGORIES)[number];

export type Step = { type: string; q: string };

export interface DecisionRecipe {
  /** What the recipe decides between. */
  outcomes: string[];
  /** Checked in order; the first that holds decides. Field names are the rows' own. */
  rules: { when: string; then: string }[];
  caveats: string[];
}

export interface Plan {
  goal_category: GoalCategory;
  /** The entity or address the goal is about, when it names one. */
  subject: string | null;
  primary: Step[];
  supporting: Step[];
  decision_recipe: DecisionRecipe;
}

/** What the goal text and the entity say, extracted once. */
export interface GoalFacts {
  text: string;
  entity?: Entity;
  address?: string;
  chain: string;
  coordinates?: { lat: number; lon: number };
}
