import { type Rule, type RuleInput, ruleKindOf } from "../../domain/rulebooks";

/** What the service remembers of a rule id: its newest version and the text it had. */
export type RuleHistory = ReadonlyMap<
  string,
  Pick<Rule, "title" | "description" | "kind" | "version">
>;

/**
 * Gives each rule its kind (its own, else from its title) and its version: 1 for a rule id
 * never seen in this rulebook, the same number while title, description and kind stay as they
 * were, the next number when one changed (a kind decides what counts as a breach). A severity
 * change alone keeps the version: it changes how a breach is weighed, not the rule.
 */
export function versionRules(inputs: readonly RuleInput[], history: RuleHistory): Rule[] {
  return inputs.map((input) => {
    const rule = { ...input, kind: ruleKindOf(input) };
    const known = history.get(input.id);
    if (!known) return { ...rule, version: 1 };
    const same =
      known.title === input.title &&
      known.description === input.description &&
      known.kind === rule.kind;
    return { ...rule, version: same ? known.version : known.version + 1 };
  });
}

/** Whether two rule lists are the same rule set (order, ids, text, severity, kind, versions). */
export function sameRuleSet(a: readonly Rule[], b: readonly Rule[]): boolean {
  return (
    a.length === b.length &&
    a.every((rule, index) => {
      const other = b[index];
      return (
        other !== undefined &&
        rule.id === other.id &&
        rule.title === other.title &&
        rule.description === other.description &&
        rule.severity === other.severity &&
        rule.kind === other.kind &&
        rule.version === other.version
      );
    })
  );
}
