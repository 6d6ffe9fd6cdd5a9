import { describe, expect, it } from "vitest";
import overview from "../../../docs/api-overview.md?raw";
import architecture from "../../../docs/architecture.md?raw";
import runSteps from "../../../docs/decisions/run-steps.md?raw";
import readme from "../../../README.md?raw";
import {
  DEFAULT_RATE_LIMITS,
  RATE_CLASSES,
  RATE_WINDOW_SECONDS,
} from "../../../src/domain/rate-limits";
import { CSV_IMPORT_LIMITS, RULEBOOK_LIMITS } from "../../../src/domain/rulebooks";
import { WORKFLOW_LIMITS } from "../../../src/domain/workflows";
import { MAX_REQUEST_ID_LENGTH } from "../../../src/lib/request-id";
import { IDEMPOTENCY_KEY_MAX } from "../../../src/middleware/idempotency";
import { MAX_JSON_DEPTH } from "../../../src/middleware/json-depth";
import { MAX_RETENTION_DAYS } from "../../../src/routes/admin/schemas";
import { SearchBodySchema } from "../../../src/routes/search/schemas";
import { CAPTION_FILE_MAX_BYTES } from "../../../src/routes/videos/captions-schemas";
import { PageQuerySchema } from "../../../src/schemas/page";
import { MAX_UPLOADED_LANGUAGES } from "../../../src/services/captions/uploaded";
import { DEFAULT_INVOCATION_SECONDS } from "../../../src/services/runs/run-lanes";
import {
  CHUNK_BYTES,
  DIRECT_MAX_BYTES,
  MAX_FILE_BYTES,
  SESSION_TTL_MS,
  TARGET_TTL_MS,
} from "../../../src/services/uploads/plan";

// The limits and defaults a client or operator reads in the docs must be the ones the code
// enforces. These constants load only in the Worker's runtime, so the docs come in as text;
// test/node/stated-defaults.test.ts checks what plain Node can load.
const MiB = 1024 * 1024;
const HOUR_MS = 3600 * 1000;
const thousands = (n: number) => n.toLocaleString("en-US");

/** The cell in `column` of the Markdown table row whose first cell is exactly `first`. */
function tableCell(markdown: string, first: string, column = 1): string {
  const rows = markdown.split("\n").map((line) => line.split("|").map((cell) => cell.trim()));
  const cell = rows.find((cells) => cells[0] === "" && cells[1] === first)?.[column + 1];
  if (cell === undefined) throw new Error(`no table row for ${first}`);
  return cell;
}

describe("the run invocation budget stated in the docs", () => {
  it("is the code's default, in the README's table and wherever a default is quoted", () => {
    expect(tableCell(readme, "`RUN_INVOCATION_SECONDS`")).toBe(`\`${DEFAULT_INVOCATION_SECONDS}\``);
    const quoted = [readme, architecture, runSteps].flatMap((text) =>
      [...text.matchAll(/RUN_INVOCATION_SECONDS`?[^.;:\n]{0,40}?default\W{0,3}(\d+)/g)].map((m) =>
        Number(m[1]),
      ),
    );
    expect(quoted.length, "docs/decisions/run-steps.md quotes the default").toBeGreaterThan(0);
    expect(quoted.filter((n) => n !== DEFAULT_INVOCATION_SECONDS)).toEqual([]);
  });
});

describe("limits stated in docs/api-overview.md", () => {
  const limit = (row: string) => tableCell(overview, row);

  it("states the request and page limits the code enforces", () => {
    expect(limit("`Idempotency-Key`")).toContain(`≤ ${IDEMPOTENCY_KEY_MAX} characters`);
    expect(limit("page `limit`")).toContain(`default ${PageQuerySchema.parse({}).limit}`);
    const search = SearchBodySchema.parse({ query: "dock" });
    expect(limit("search `limit`, `threshold`")).toContain(`(default ${search.limit})`);
    expect(limit("search `limit`, `threshold`")).toContain(`(default ${search.threshold})`);
    expect(limit("JSON body")).toContain(
      `(CSV import preview ${CSV_IMPORT_LIMITS.requestBytes / MiB} MiB), ${MAX_JSON_DEPTH} levels deep`,
    );
    expect(limit("`X-Request-Id` you send")).toContain(`1-${MAX_REQUEST_ID_LENGTH} of`);
    expect(limit("requests per workspace")).toContain(`${RATE_WINDOW_SECONDS} s window`);
  });

  it("states the upload, retention and content limits the code enforces", () => {
    expect(limit("video file")).toBe(
      `≤ ${MAX_FILE_BYTES / 1024 / MiB} GiB; one PUT up to ${DIRECT_MAX_BYTES / MiB} MiB, else ${CHUNK_BYTES / MiB} MiB parts`,
    );
    expect(limit("upload session, storage target")).toBe(
      `${SESSION_TTL_MS / HOUR_MS} hours, ${TARGET_TTL_MS / HOUR_MS} hour`,
    );
    expect(limit("video")).toContain(`(1-${MAX_RETENTION_DAYS})`);
    expect(limit("`source_ids` of a run or workflow")).toBe(`1-${WORKFLOW_LIMITS.sources}`);
    expect(limit("CSV import")).toBe(
      `${CSV_IMPORT_LIMITS.fileBytes / MiB} MiB, ${thousands(CSV_IMPORT_LIMITS.rows)} rows`,
    );
    expect(limit("caption file")).toBe(
      `${CAPTION_FILE_MAX_BYTES / MiB} MiB, UTF-8; uploaded captions in up to ${MAX_UPLOADED_LANGUAGES} languages per video`,
    );
    expect(limit("rules per rulebook")).toBe(thousands(RULEBOOK_LIMITS.rules));
  });

  it("states each operation class's default quota", () => {
    for (const name of RATE_CLASSES) {
      expect(tableCell(overview, `\`${name}\``, 2), name).toBe(
        thousands(DEFAULT_RATE_LIMITS[name]),
      );
    }
  });
});
