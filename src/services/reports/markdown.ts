import type { Cell, Citation, ReportModel, Section, Table } from "./model";
import type { ReportStrings } from "./strings";
import { stringsFor } from "./strings";

const EMPTY = "—";

// Characters that can start markup anywhere in a line. `(`, `)` and `!` only matter next to
// `[`/`]`, which are escaped, so prose keeps its punctuation readable.
const INLINE_SPECIAL = /[\\`*[\]<>|&~#]/g;
// An `_` between two letters or digits can neither open nor close emphasis (CommonMark's
// flanking rules), so `forklift_count` stays as written; any other `_` is escaped.
const LOOSE_UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/** Drops control characters other than line breaks (they could hide text); tabs become spaces. */
function withoutControls(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch === "\t") out += " ";
    else if (ch === "\n" || ch === "\r" || (code >= 0x20 && code !== 0x7f)) out += ch;
  }
  return out;
}

/** Escapes text for one line of GitHub-flavoured Markdown; line breaks become `<br>`. */
export function escapeInline(text: string): string {
  return withoutControls(text)
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(INLINE_SPECIAL, (ch) => `\\${ch}`).replace(LOOSE_UNDERSCORE, "\\_"))
    .join("<br>");
}

/** Escapes text that starts a line, where `-`, `+`, `=` and `1.` would open a list or heading. */
export function escapeLineStart(text: string): string {
  const escaped = escapeInline(text.trim());
  return escaped.replace(/^([-+=])/, "\\$1").replace(/^(\d+)([.)])/, "$1\\$2");
}

/** A table cell: escaped, trimmed, never empty. */
export function escapeCell(text: string | null): string {
  if (text === null || text.trim() === "") return EMPTY;
  return escapeInline(text.trim());
}

// Ids made of words joined by single `_`, `-`, `.`, `@` or `:` cannot open emphasis or links.
const SAFE_ID = /^[A-Za-z0-9]+(?:[_.@:-][A-Za-z0-9]+)*$/;

function citation(c: Citation): string {
  if (SAFE_ID.test(c.evidence.evidence_id)) return c.label;
  return escapeInline(c.label);
}

function code(id: string): string {
  return SAFE_ID.test(id) ? `\`${id}\`` : escapeInline(id);
}

function withCitations(text: string, citations: readonly Citation[]): string {
  return [text, ...citations.map(citation)].filter((part) => part !== "").join(" ");
}

function cell(c: Cell): string {
  const text = c.text === null || c.text.trim() === "" ? "" : escapeInline(c.text.trim());
  const joined = withCitations(text, c.citations);
  return joined === "" ? EMPTY : joined;
}

function tableLines(table: Table): string[] {
  const header = `| ${table.columns.map((c) => escapeCell(c.label)).join(" | ")} |`;
  const rule = `| ${table.columns.map(() => "---").join(" | ")} |`;
  const chunks: string[] = [];
  for (const group of table.groups) {
    const lines = group.label === null ? [] : [`### ${escapeInline(group.label)}`, ""];
    lines.push(header, rule);
    for (const row of group.rows) lines.push(`| ${row.cells.map(cell).join(" | ")} |`);
    chunks.push(lines.join("\n"));
  }
  return chunks;
}

function sectionChunks(section: Section): string[] {
  const chunks = [`## ${escapeInline(section.heading)}`];
  for (const f of section.fields) {
    chunks.push(`**${escapeInline(f.label)}:** ${escapeInline(f.text)}`);
  }
  for (const p of section.paragraphs) {
    const body = withCitations(p.text === "" ? "" : escapeLineStart(p.text), p.citations);
    if (p.lead !== null) chunks.push(`**${escapeInline(p.lead)}:** ${body || EMPTY}`);
    else if (body !== "") chunks.push(body);
  }
  if (section.table !== null) chunks.push(...tableLines(section.table));
  if (section.notice !== null) chunks.push(escapeLineStart(section.notice));
  return chunks;
}

function headerChunks(model: ReportModel, strings: ReportStrings): string[] {
  const item = (label: string, value: string) => `- **${escapeInline(label)}:** ${value}`;
  const lines = [
    item(strings.run, code(model.run_id)),
    item(
      model.profile_kind === "rulebook" ? strings.rulebook : strings.profile,
      code(model.profile_ref),
    ),
    item(strings.executionProfile, code(model.execution_profile_ref)),
    item(strings.template, code(`${model.template.id}@${model.template.version}`)),
  ];
  if (model.sources.length === 0) lines.push(item(strings.sources, escapeInline(strings.none)));
  else lines.push(item(strings.sources, "").trimEnd());
  for (const s of model.sources) {
    const details = [code(s.video_id), s.duration_text].filter((d) => d !== null).join(", ");
    const title = s.redacted ? strings.redacted : (s.title ?? strings.untitled);
    lines.push(`  - ${escapeInline(title)} (${details})`);
  }
  lines.push(item(strings.summary, escapeInline(model.summary)));
  // "None" only when nothing limits the answers: not even one left uncertain or not checked,
  // decided on part of the sources, or a source nothing was heard or seen of.
  const limits = model.limitations.map((l) => l.text);
  if (limits.length === 0) {
    lines.push(item(strings.limitations, escapeInline(strings.none)));
  } else {
    lines.push(item(strings.limitations, "").trimEnd());
    for (const text of limits) lines.push(`  - ${escapeInline(text)}`);
  }
  return [`# ${escapeInline(model.title)}`, lines.join("\n")];
}

/** The Markdown report: title, header list, one `##` section per block, `\n` line ends. */
export function toMarkdown(model: ReportModel): string {
  const strings = stringsFor(model.language);
  const chunks = headerChunks(model, strings);
  for (const section of model.sections) {
    // The first heading block is the report's title, already written above.
    if (section.kind !== "title") chunks.push(...sectionChunks(section));
  }
  return `${chunks.join("\n\n")}\n`;
}
