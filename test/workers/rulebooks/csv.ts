import { API, type Client, expectJson, workerFetch } from "../../helpers/harness";
import type { Rulebook } from "./bodies";

/** What a preview answers. */
export interface Preview {
  session_id: string;
  expires_at: string;
  delimiter: string;
  columns: string[];
  suggested_mapping: Record<string, string | string[] | null>;
  row_count: number;
  rows: { line: number; values: Record<string, string> }[];
  errors: { line: number; message: string }[];
  error_count: number;
}

/** Sends a CSV file (text or raw bytes) to the preview as a text/csv body. */
export function sendCsv(
  api: Client,
  csv: string | Uint8Array,
  headers: Record<string, string> = {},
): Promise<Response> {
  return workerFetch(`${API}/rulebooks/csv-imports/preview`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.key}`, "content-type": "text/csv", ...headers },
    body: csv,
  });
}

/** Previews a CSV file and returns the preview. */
export async function preview(api: Client, csv: string): Promise<Preview> {
  return expectJson<Preview>(await sendCsv(api, csv), 201);
}

/** Imports a previewed session. */
export function importCsv(api: Client, body: Record<string, unknown>): Promise<Response> {
  return api.post("/rulebooks/csv-imports", body);
}

/** What an import answers. */
export interface ImportResult {
  created_count: number;
  rulebooks: Rulebook[];
}
