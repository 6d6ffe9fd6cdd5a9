import {
  CSV_IMPORT_LIMITS,
  type CsvMapping,
  RULE_ID_PATTERN,
  RULE_KINDS,
  RULE_SEVERITIES,
  RULEBOOK_LIMITS,
  type RuleInput,
  type RuleKind,
  type RuleSeverity,
} from "../../domain/rulebooks";
import type { FieldError } from "../../errors/api-error";
import type { ParsedCsv } from "./csv-parse";
import type { RulebookDraft } from "./rulebooks";

/** Header names (lowercase, letters and digits only) each role is suggested for, best first. */
const ROLE_NAMES = {
  rulebook_name: ["rulebook", "rulebookname", "rulebooktitle", "policy", "policyname", "checklist"],
  rule_id: ["ruleid", "id", "rulecode", "code", "ruleno", "rulenumber", "ref", "reference"],
  rule_title: ["ruletitle", "title", "rule", "rulename", "name", "requirement", "check"],
  rule_description: ["ruledescription", "description", "details", "guidance", "explanation"],
  rule_severity: ["severity", "ruleseverity", "priority", "risk", "risklevel"],
} as const;

type Role = keyof typeof ROLE_NAMES;

function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * Suggests a mapping from the header: each role takes the column whose name is closest to
 * one of its usual names; every other column is suggested as additional description.
 */
export function suggestMapping(columns: readonly string[]): {
  [K in Role]: string | null;
} & { additional_description_columns: string[] } {
  const taken = new Set<string>();
  const pick = (role: Role): string | null => {
    for (const name of ROLE_NAMES[role]) {
      const column = columns.find((c) => !taken.has(c) && normalise(c) === name);
      if (column !== undefined) {
        taken.add(column);
        return column;
      }
    }
    return null;
  };
  const mapping = {
    rule_id: pick("rule_id"),
    rule_title: pick("rule_title"),
    rule_description: pick("rule_description"),
    rule_severity: pick("rule_severity"),
    rulebook_name: pick("rulebook_name"),
  };
  return { ...mapping, additional_description_columns: columns.filter((c) => !taken.has(c)) };
}

/** Checks that the mapping names columns of the file; field errors name the mapping field. */
export function mappingErrors(mapping: CsvMapping, columns: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const known = `its columns are ${columns.map((c) => `"${c}"`).join(", ")}`;
  for (const role of Object.keys(ROLE_NAMES) as Role[]) {
    const column = mapping[role];
    if (column !== undefined && !columns.includes(column)) {
      errors.push({ path: `mapping.${role}`, message: `names no column of the file; ${known}` });
    }
  }
  if (mapping.rule_kind !== undefined && !columns.includes(mapping.rule_kind)) {
    errors.push({ path: "mapping.rule_kind", message: `names no column of the file; ${known}` });
  }
  const extra = mapping.additional_description_columns ?? [];
  extra.forEach((column, index) => {
    const path = `mapping.additional_description_columns[${index}]`;
    if (!columns.includes(column)) errors.push({ path, message: `names no column; ${known}` });
    else if (extra.indexOf(column) !== index) errors.push({ path, message: `repeats "${column}"` });
  });
  return errors;
}

/** The rulebooks an import would create, or the errors that stop it (nothing is written). */
export function draftsFromRows(
  parsed: ParsedCsv,
  mapping: CsvMapping,
  defaultName: string | undefined,
): { drafts: RulebookDraft[]; errors: FieldError[] } {
  const errors: FieldError[] = parsed.errors.map((e) => ({
    path: `csv[${e.line}]`,
    message: e.message,
  }));
  const at = (column: string | undefined, values: string[]) =>
    column === undefined ? "" : (values[parsed.columns.indexOf(column)] ?? "").trim();
  const books = new Map<string, { rules: RuleInput[]; lines: Map<string, number> }>();
  let unnamed = 0;
  for (const { line, values } of parsed.rows) {
    const cell = (field: string, message: string) =>
      errors.push({ path: `csv[${line}].${field}`, message });
    const name = at(mapping.rulebook_name, values) || defaultName?.trim() || "";
    if (name === "") {
      unnamed++;
      continue;
    }
    if (name.length > RULEBOOK_LIMITS.nameChars) {
      cell("rulebook_name", `is longer than ${RULEBOOK_LIMITS.nameChars} characters`);
    }
    const book = books.get(name) ?? { rules: [], lines: new Map<string, number>() };
    books.set(name, book);
    const id =
      mapping.rule_id === undefined ? `rule-${book.rules.length + 1}` : at(mapping.rule_id, values);
    const title = at(mapping.rule_title, values);
    const severityText = at(mapping.rule_severity, values).toLowerCase();
    const kindText = at(mapping.rule_kind, values).toLowerCase();
    const details = (mapping.additional_description_columns ?? [])
      .map((column) => [column, at(column, values)] as const)
      .filter(([, value]) => value !== "")
      .map(([column, value]) => `${column}: ${value}`);
    const description = [at(mapping.rule_description, values), ...details]
      .filter(Boolean)
      .join("\n");
    if (id === "") cell("rule_id", "is empty; every rule needs an id");
    else if (!RULE_ID_PATTERN.test(id)) {
      cell("rule_id", `"${id.slice(0, 80)}" must be 1-64 letters, digits, _, -, . or :`);
    } else if (book.lines.has(id)) {
      cell(
        "rule_id",
        `repeats the id "${id}" of line ${book.lines.get(id)} in rulebook "${name}"; rule ids are unique within a rulebook`,
      );
    } else book.lines.set(id, line);
    if (title === "") cell("rule_title", "is empty; every rule needs a title");
    else if (title.length > RULEBOOK_LIMITS.titleChars) {
      cell("rule_title", `is longer than ${RULEBOOK_LIMITS.titleChars} characters`);
    }
    if (description.length > RULEBOOK_LIMITS.descriptionChars) {
      cell(
        "rule_description",
        `with the additional columns is longer than ${RULEBOOK_LIMITS.descriptionChars} characters`,
      );
    }
    if (severityText !== "" && !(RULE_SEVERITIES as readonly string[]).includes(severityText)) {
      cell(
        "rule_severity",
        `"${severityText.slice(0, 40)}" is not one of ${RULE_SEVERITIES.join(", ")}`,
      );
    }
    if (kindText !== "" && !(RULE_KINDS as readonly string[]).includes(kindText)) {
      cell("rule_kind", `"${kindText.slice(0, 40)}" is not one of ${RULE_KINDS.join(", ")}`);
    }
    book.rules.push({
      id,
      title,
      description,
      severity: severityText === "" ? null : (severityText as RuleSeverity),
      kind: kindText === "" ? null : (kindText as RuleKind),
    });
  }
  if (unnamed > 0) {
    errors.push({
      path: "default_rulebook_name",
      message: `is needed: ${unnamed} rows have no rulebook name`,
    });
  }
  if (books.size > CSV_IMPORT_LIMITS.rulebooks) {
    errors.push({
      path: "mapping.rulebook_name",
      message: `gives ${books.size} rulebook names; one import creates at most ${CSV_IMPORT_LIMITS.rulebooks}`,
    });
  }
  if (parsed.rows.length === 0) errors.push({ path: "csv", message: "has no data rows" });
  const drafts = [...books].map(([name, book]) => ({ name, content: "", rules: book.rules }));
  return { drafts, errors };
}
