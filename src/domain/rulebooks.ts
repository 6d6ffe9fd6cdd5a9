/** How much a broken rule matters; optional on a rule, carried into its findings. */
export const RULE_SEVERITIES = ["low", "medium", "high", "critical"] as const;

/** One rule severity. */
export type RuleSeverity = (typeof RULE_SEVERITIES)[number];

/**
 * What a rule states: a `requirement` (met when it happens) or a `hazard` (a problem when it
 * happens). A workflow asks "was this requirement met?" or "did this hazard occur?".
 */
export const RULE_KINDS = ["requirement", "hazard"] as const;

/** One rule kind. */
export type RuleKind = (typeof RULE_KINDS)[number];

/** A rule as a rule set version stores it; `version` is set by the service. */
export interface Rule {
  id: string;
  title: string;
  description: string;
  severity: RuleSeverity | null;
  kind: RuleKind;
  version: number;
}

/** A rule as a client sends it: the service decides its version, and its kind when absent. */
export type RuleInput = Omit<Rule, "version" | "kind"> & { kind?: RuleKind | null | undefined };

// Title words that name a hazard rather than a requirement ("Slip hazard", "Unsafe lifting").
// Reading a hazard as a requirement would report a hazard seen as met, so any of them makes a
// hazard: the costlier mistake is the one avoided.
const HAZARD_TITLE =
  /(?<![\p{L}\p{N}])(hazards?|hazardous|dangers?|dangerous|unsafe|risks?|risky|incidents?|accidents?|injury|injuries|near[ -]miss(es)?|violations?)(?![\p{L}\p{N}])/iu;

/** A rule's kind: its own, else `hazard` when its title names one, else `requirement`. */
export function ruleKindOf(rule: Pick<Rule, "title"> & { kind?: RuleKind | null | undefined }) {
  return rule.kind ?? (HAZARD_TITLE.test(rule.title) ? "hazard" : "requirement");
}

/** Rule ids: 1-64 letters, digits, `_`, `-`, `.` or `:`, starting with a letter or digit. */
export const RULE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** Limits of one rulebook (docs/api-overview.md, "Limits", and the OpenAPI descriptions). */
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

/** Limits of one CSV import (docs/api-overview.md, "Limits", and the OpenAPI descriptions). */
export const CSV_IMPORT_LIMITS = {
  /** The file itself, in bytes as uploaded. */
  fileBytes: 5 * 1024 * 1024,
  /** The preview request body: the file plus JSON escaping or multipart framing. */
  requestBytes: 12 * 1024 * 1024,
  /** Data rows, the header and blank lines not counted. */
  rows: 10_000,
  columns: 100,
  columnNameChars: 200,
  /** Rulebooks one import may create. */
  rulebooks: 100,
  /** How long a preview session can be imported. */
  sessionSeconds: 60 * 60,
  /** Rows shown in a preview. */
  previewRows: 20,
  /** Row errors listed (the count says how many there were). */
  listedErrors: 100,
} as const;

/** The roles a CSV column can play in an import. */
export interface CsvMapping {
  rulebook_name?: string | undefined;
  rule_id?: string | undefined;
  rule_title: string;
  rule_description?: string | undefined;
  rule_severity?: string | undefined;
  rule_kind?: string | undefined;
  additional_description_columns?: string[] | undefined;
}
