import { VasError } from "../errors.js";
import type { RateLimitNotice } from "../rate-limit.js";
import { EXIT, UsageError } from "./config.js";

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Rows of plain text, columns padded to their widest cell, one line each. */
export function tableLines(rows: (string | number | undefined)[][]): string[] {
  const cells = rows.map((row) => row.map((cell) => String(cell ?? "")));
  const widths = cells.reduce<number[]>(
    (w, row) => row.map((cell, i) => Math.max(w[i] ?? 0, cell.length)),
    [],
  );
  return cells.map((row) =>
    row
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}

/** Rows of plain text, columns padded to their widest cell. */
export function printTable(rows: (string | number | undefined)[][]): void {
  for (const line of tableLines(rows)) process.stdout.write(`${line}\n`);
}

export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/** One line on stderr and the exit code the README documents for this failure. */
export function reportFailure(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`vas: ${error.message}\n`);
    return EXIT.usage;
  }
  if (error instanceof VasError) {
    const fields = error.fields.length ? ` (${error.fields.join(", ")})` : "";
    const next = error.problem.next_action ? ` ${error.problem.next_action}` : "";
    const request = error.requestId === null ? "" : ` [request ${error.requestId}]`;
    process.stderr.write(`vas: ${error.code}: ${error.message}${fields}${next}${request}\n`);
    if (error.kind === "failed") return EXIT.failed;
    if (error.kind === "timeout") return EXIT.timeout;
    return EXIT.error;
  }
  process.stderr.write(`vas: ${error instanceof Error ? error.message : String(error)}\n`);
  return EXIT.error;
}

/** One line on stderr before the client waits out a 429, so a pause is never a mystery. */
export function reportRateLimited(notice: RateLimitNotice): void {
  const path = new URL(notice.url).pathname;
  const seconds = Math.ceil(notice.waitMs / 1000);
  const policy = notice.rateLimit ? ` (${notice.rateLimit})` : "";
  process.stderr.write(
    `vas: rate limited${policy}: ${notice.method} ${path} again in ${seconds} s\n`,
  );
}
