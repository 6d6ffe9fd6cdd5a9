/** How much a broken rule matters; optional on a rule, carried into its findings. */
export const RULE_SEVERITIES = ["low", "medium", "high", "critical"] as const;

/** One rule severity. */
export type RuleSeverity = (typeof RULE_SEVERITIES)[number];

/** A rule as a rule set version stores it; `version` is set by the service. */
export interface Rule {
  id: string;
  title: string;
  description: string;
  severity: RuleSeverity | null;
  version: number;
}

/** A rule as a client sends it: the service decides its version. */
export type RuleInput = Omit<Rule, "version">;

/** Limits of one rulebook (documented in docs/decisions.md and the OpenAPI descriptions). */
export const RULEBOOK_LIMITS = {
  nameChars: 200,
  contentChars: 20_000,
  rules: 10_000,
  ruleIdChars: 64,
  titleChars: 500,
  descriptionChars: 10_000,
} as const;

/** The owner a key acts for when the operator gave none: one owner per key. */
export function ownerOfKey(keyId: string): string {
  return `user_${keyId.replace(/^key_/, "")}`;
}
