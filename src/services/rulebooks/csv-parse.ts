import Papa from "papaparse";
import { CSV_IMPORT_LIMITS } from "../../domain/rulebooks";
import { ApiError, invalidRequest } from "../../errors/api-error";

/** A data row and the line of the file it starts on (1-based; quoted newlines count). */
export interface CsvRow {
  line: number;
  values: string[];
}

/** A problem with one row, by the line it starts on. */
export interface CsvRowError {
  line: number;
  message: string;
}

/** A parsed file: the header's columns, the data rows, and rows that could not be read. */
export interface ParsedCsv {
  delimiter: string;
  columns: string[];
  rows: CsvRow[];
  errors: CsvRowError[];
}

/** Delimiters detected, in the order papaparse tries them. */
const DELIMITERS = [",", ";", "\t", "|"];
const BOM = "\uFEFF";
const REPLACEMENT = "\uFFFD";

/**
 * Reads uploaded bytes as UTF-8 text without a byte order mark. Bytes that are not UTF-8
 * answer 400, and so does U+FFFD: text that passed through a lossy decoder on its way here
 * (a JSON body, a replayed request) carries that character where the bad bytes were.
 */
export function decodeCsv(input: Uint8Array | string, field: string): string {
  const size =
    typeof input === "string" ? new TextEncoder().encode(input).byteLength : input.byteLength;
  if (size > CSV_IMPORT_LIMITS.fileBytes) {
    throw new ApiError(
      "payload-too-large",
      `The CSV file is ${size} bytes; an import takes at most ${CSV_IMPORT_LIMITS.fileBytes} bytes (5 MiB).`,
    );
  }
  let text: string;
  try {
    text =
      typeof input === "string"
        ? input
        : new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(input);
  } catch {
    text = REPLACEMENT;
  }
  if (text.includes(REPLACEMENT)) {
    throw invalidRequest([
      { path: field, message: "is not UTF-8 text; save the file as CSV UTF-8 and send it again" },
    ]);
  }
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

function lineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const char = text.charCodeAt(i);
    if (char === 10) count++;
    else if (char === 13 && text.charCodeAt(i + 1) !== 10) count++;
  }
  return count;
}

/**
 * Distinct names for the header's columns, the same for the same header every time, so the
 * preview (which keys each row by name) and the import (which finds a column by name) read
 * the same cells. A name is the header cell trimmed (`Column N` when empty); a repeat gets
 * the first free `name (k)`, k from 2, that no column of the header is called, so
 * `Title,Title,Title (2)` reads `Title`, `Title (3)`, `Title (2)`.
 */
export function columnNames(header: readonly string[]): string[] {
  const bases = header.map((raw, index) => raw.trim() || `Column ${index + 1}`);
  const written = new Set(bases);
  const taken = new Set<string>();
  return bases.map((base) => {
    let name = base;
    // A suffixed name that some cell of the header spells out is left to that cell.
    for (let k = 2; taken.has(name) || (name !== base && written.has(name)); k++) {
      name = `${base} (${k})`;
    }
    taken.add(name);
    return name;
  });
}

/**
 * Parses CSV text: delimiter detected (comma, semicolon, tab or pipe), quoted fields with
 * doubled quotes and line breaks, CRLF or LF. The first non-blank row is the header; blank
 * rows are skipped; a row with another number of fields than the header, or an unclosed
 * quote, is a row error. Over 10,000 data rows answers 413.
 */
export function parseCsv(text: string, field: string): ParsedCsv {
  let delimiter = ",";
  let header: string[] | null = null;
  const rows: CsvRow[] = [];
  const errors: CsvRowError[] = [];
  let cursor = 0;
  let line = 1;
  let tooMany = false;
  Papa.parse<string[]>(text, {
    delimiter: "",
    delimitersToGuess: DELIMITERS,
    step: (result, parser) => {
      const start = line;
      const end = result.meta.cursor;
      line += lineBreaks(text, cursor, end);
      cursor = end;
      delimiter = result.meta.delimiter;
      const values = result.data;
      if (values.every((value) => value.trim() === "")) return;
      if (header === null) {
        header = values;
        return;
      }
      if (rows.length >= CSV_IMPORT_LIMITS.rows) {
        tooMany = true;
        parser.abort();
        return;
      }
      rows.push({ line: start, values });
      const quote = result.errors.find((error) => error.type === "Quotes");
      if (quote) errors.push({ line: start, message: "has a quoted field that is never closed" });
      else if (values.length !== header.length) {
        errors.push({
          line: start,
          message: `has ${values.length} fields; the header has ${header.length}`,
        });
      }
    },
  });
  if (tooMany) {
    throw new ApiError(
      "payload-too-large",
      `The CSV file has more than ${CSV_IMPORT_LIMITS.rows} data rows; split it into several imports.`,
    );
  }
  if (header === null) {
    throw invalidRequest([
      { path: field, message: "holds no header row; the first row names the columns" },
    ]);
  }
  const found: string[] = header;
  if (found.length > CSV_IMPORT_LIMITS.columns) {
    throw invalidRequest([
      { path: field, message: `has ${found.length} columns; at most ${CSV_IMPORT_LIMITS.columns}` },
    ]);
  }
  const columns = columnNames(found);
  const long = columns.find((name) => name.length > CSV_IMPORT_LIMITS.columnNameChars);
  if (long !== undefined) {
    throw invalidRequest([
      {
        path: field,
        message: `has a column name longer than ${CSV_IMPORT_LIMITS.columnNameChars} characters`,
      },
    ]);
  }
  return { delimiter, columns, rows, errors };
}
