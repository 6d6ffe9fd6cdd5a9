import { findCsvImport, insertCsvImport } from "../../db/repos/rulebook-csv-imports";
import type { AuthContext } from "../../domain/caller";
import { CSV_IMPORT_LIMITS, type CsvMapping } from "../../domain/rulebooks";
import { ApiError, invalidRequest, notFound } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { csvImportKey } from "../../lib/object-keys";
import type { Deps } from "../deps";
import type { RulebookResource } from "../presenters/rulebook";
import { draftsFromRows, mappingErrors, suggestMapping } from "./csv-mapping";
import { decodeCsv, parseCsv } from "./csv-parse";
import { createRulebooks } from "./rulebooks";

const L = CSV_IMPORT_LIMITS;

/** What a preview answers (the session to import with and what the file holds). */
export interface CsvPreview {
  session_id: string;
  expires_at: string;
  delimiter: string;
  columns: string[];
  suggested_mapping: ReturnType<typeof suggestMapping>;
  row_count: number;
  rows: { line: number; values: Record<string, string> }[];
  errors: { line: number; message: string }[];
  error_count: number;
}

/**
 * Reads and checks a CSV file and opens an import session for it: the file (UTF-8, without
 * BOM) is kept in the bucket, the session row in D1, for one hour.
 */
export async function previewCsvImport(
  deps: Pick<Deps, "db" | "bucket" | "clock">,
  auth: AuthContext,
  input: Uint8Array | string,
  field: string,
): Promise<CsvPreview> {
  const text = decodeCsv(input, field);
  const parsed = parseCsv(text, field);
  const now = deps.clock.now();
  const id = newId("rbi", now);
  const expiresAt = nowIso(now + L.sessionSeconds * 1000);
  await deps.bucket.put(csvImportKey(auth.workspaceId, id), text, {
    httpMetadata: { contentType: "text/csv; charset=utf-8" },
  });
  await insertCsvImport(deps.db, {
    id,
    workspaceId: auth.workspaceId,
    ownerId: auth.ownerId,
    createdBy: auth.keyId,
    delimiter: parsed.delimiter,
    columns: parsed.columns,
    rowCount: parsed.rows.length,
    byteSize: new TextEncoder().encode(text).byteLength,
    createdAt: nowIso(now),
    expiresAt,
  });
  return {
    session_id: id,
    expires_at: expiresAt,
    delimiter: parsed.delimiter,
    columns: parsed.columns,
    suggested_mapping: suggestMapping(parsed.columns),
    row_count: parsed.rows.length,
    rows: parsed.rows.slice(0, L.previewRows).map((row) => ({
      line: row.line,
      values: Object.fromEntries(parsed.columns.map((c, i) => [c, row.values[i] ?? ""])),
    })),
    errors: parsed.errors.slice(0, L.listedErrors),
    error_count: parsed.errors.length,
  };
}

/** The body of POST /rulebooks/csv-imports. */
export interface CsvImportRequest {
  session_id: string;
  default_rulebook_name?: string | undefined;
  mapping: CsvMapping;
}

function expired(id: string): ApiError {
  return new ApiError(
    "csv-import-expired",
    `CSV import session ${id} has expired; send the file to POST /rulebooks/csv-imports/preview again.`,
  );
}

/**
 * Imports a previewed file: one rulebook per rulebook name (or the default name), written
 * in one D1 batch. Any row or mapping problem answers 400 listing them and writes nothing.
 * Unknown or foreign sessions answer 404, expired ones 410.
 */
export async function runCsvImport(
  deps: Pick<Deps, "db" | "bucket" | "clock">,
  auth: AuthContext,
  request: CsvImportRequest,
): Promise<{ created_count: number; rulebooks: RulebookResource[] }> {
  const session = await findCsvImport(deps.db, auth, request.session_id);
  if (!session) throw notFound("CSV import session", request.session_id);
  if (Date.parse(session.expiresAt) <= deps.clock.now()) throw expired(session.id);
  const fieldErrors = mappingErrors(request.mapping, session.columns);
  if (fieldErrors.length > 0) throw invalidRequest(fieldErrors);
  const object = await deps.bucket.get(csvImportKey(session.workspaceId, session.id));
  if (!object) throw expired(session.id);
  const parsed = parseCsv(await object.text(), "csv");
  const { drafts, errors } = draftsFromRows(parsed, request.mapping, request.default_rulebook_name);
  if (errors.length > 0) {
    throw invalidRequest(
      errors.slice(0, L.listedErrors),
      `The file cannot be imported: ${errors.length} problem${errors.length === 1 ? "" : "s"} (the first ${Math.min(errors.length, L.listedErrors)} are listed). Nothing was created.`,
    );
  }
  const rulebooks = await createRulebooks(deps, auth, drafts);
  return { created_count: rulebooks.length, rulebooks };
}
