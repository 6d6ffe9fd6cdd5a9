/**
 * What production D1 (and Durable Object SQLite) refuses that the local simulator accepts:
 * a string or BLOB over 2,000,000 bytes and a SQL function called with more than 32
 * arguments (local D1 took a 5 MB value and 40 arguments). Checked before a statement leaves
 * the Worker, everywhere, so a test or `npm run dev` fails where production would.
 */
export const D1_LIMITS = {
  /** Bytes of one string or BLOB, and of one row. */
  valueBytes: 2_000_000,
  /** Arguments of one SQL function call. */
  functionArgs: 32,
  /** Bound parameters of one statement. */
  boundParameters: 100,
} as const;

/** A statement the platform would refuse, refused here first with the limit it breaks. */
export class D1LimitError extends Error {
  override readonly name = "D1LimitError";
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a bound value as D1 stores it (numbers and nulls are small). */
export function boundValueBytes(value: unknown): number {
  if (typeof value === "string") {
    // Three bytes per UTF-16 unit at most: most strings are settled without encoding.
    if (value.length * 3 <= D1_LIMITS.valueBytes) return value.length;
    return encoder.encode(value).length;
  }
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  return 8;
}

/** Throws when a bound value or the parameter count is over D1's limits. */
export function checkBoundValues(values: readonly unknown[]): void {
  if (values.length > D1_LIMITS.boundParameters) {
    throw new D1LimitError(
      `D1 refuses ${values.length} bound parameters in one statement (at most ${D1_LIMITS.boundParameters})`,
    );
  }
  for (const [index, value] of values.entries()) {
    const bytes = boundValueBytes(value);
    if (bytes > D1_LIMITS.valueBytes) {
      throw new D1LimitError(
        `D1 refuses bound value ${index + 1} of ${bytes} bytes (at most ${D1_LIMITS.valueBytes} bytes per value or row)`,
      );
    }
  }
}

// Words that may stand before "(" without calling a function (lists, subqueries, columns).
const NOT_FUNCTIONS = new Set(
  (
    "all and as between by check conflict default delete distinct do else end escape except " +
    "exists filter from generated glob groups having in index insert intersect into is join " +
    "key like limit match not nothing offset on or order over partition primary range " +
    "recursive references returning rows select set table then to trigger union unique " +
    "update using values view when where window with"
  ).split(" "),
);
// After these words an identifier is a table's name, and "(" opens its column list.
const BEFORE_TABLE_NAME = new Set(["into", "table", "on", "exists", "references", "view"]);

interface Frame {
  name: string | null;
  commas: number;
  empty: boolean;
}

/** The most arguments any SQL function call in `sql` takes, with the function's name. */
export function widestFunctionCall(sql: string): { name: string; args: number } | null {
  const frames: Frame[] = [];
  let widest: { name: string; args: number } | null = null;
  let word: string | null = null;
  let previousWord: string | null = null;
  let i = 0;
  const touch = () => {
    const top = frames.at(-1);
    if (top) top.empty = false;
  };
  while (i < sql.length) {
    const c = sql[i] as string;
    if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let j = i + 1;
      while (j < sql.length && !(sql[j] === close && sql[j + 1] !== close))
        j += sql[j] === close ? 2 : 1;
      touch();
      previousWord = word;
      word = null;
      i = j + 1;
      continue;
    }
    if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
      continue;
    }
    if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_$]/.test(sql[j] as string)) j++;
      touch();
      previousWord = word;
      word = sql.slice(i, j).toLowerCase();
      i = j;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "(") {
      touch();
      const calls =
        word !== null &&
        !NOT_FUNCTIONS.has(word) &&
        !(previousWord !== null && BEFORE_TABLE_NAME.has(previousWord));
      frames.push({ name: calls ? word : null, commas: 0, empty: true });
    } else if (c === ")") {
      const frame = frames.pop();
      if (frame?.name) {
        const args = frame.empty ? 0 : frame.commas + 1;
        if (!widest || args > widest.args) widest = { name: frame.name, args };
      }
      touch();
    } else if (c === ",") {
      const top = frames.at(-1);
      if (top) top.commas++;
    } else {
      touch();
    }
    previousWord = word;
    word = null;
    i++;
  }
  return widest;
}

/** Throws when a function call in `sql` takes more arguments than D1 allows. */
export function checkFunctionArgs(sql: string): void {
  const widest = widestFunctionCall(sql);
  if (widest && widest.args > D1_LIMITS.functionArgs) {
    throw new D1LimitError(
      `D1 refuses ${widest.name}() with ${widest.args} arguments (at most ${D1_LIMITS.functionArgs})`,
    );
  }
}
