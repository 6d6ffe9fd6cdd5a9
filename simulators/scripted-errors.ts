import { documentedError } from "../src/ports/ai/error-table";

/** The simulated models `SIMULATE_ERRORS` can make fail. */
export type ErringPart = "speech" | "vision" | "answers" | "embeddings";

/**
 * What a part throws: a numeric code (a documented one as the table gives it, any other as an
 * undocumented code with HTTP 500), `unknown` (an error naming no code or status), or
 * `json-mode` (JSON mode's documented failure, which carries no code).
 */
export type ScriptedError = number | "unknown" | "json-mode";

/** One part's script: the error, and how many calls fail before it answers again. */
export interface ErrorScript {
  error: ScriptedError;
  /** Calls that fail (Infinity: every call). */
  times: number;
}

/** The scripts by part; a test may also build one directly. */
export type ScriptedErrors = ReadonlyMap<ErringPart, ErrorScript>;

const PARTS: readonly ErringPart[] = ["speech", "vision", "answers", "embeddings"];

/**
 * `SIMULATE_ERRORS`: a comma list of `part=error` or `part=errorxN` (the first N calls of that
 * part fail, then it answers), e.g. `speech=3040x2,answers=unknown,vision=5021`. A malformed
 * value is refused, never read as nothing.
 */
export function scriptedErrorsFrom(raw: string | undefined): ScriptedErrors {
  const scripts = new Map<ErringPart, ErrorScript>();
  if (raw === undefined || raw.trim() === "" || raw.trim() === "none") return scripts;
  for (const item of raw.split(",")) {
    const match = /^\s*(\w+)\s*=\s*(\d+|unknown|json-mode)(?:x(\d+))?\s*$/.exec(item);
    const part = PARTS.find((p) => p === match?.[1]);
    if (!match || !part)
      throw new Error(
        `SIMULATE_ERRORS takes a comma list of part=error[xN] (parts ${PARTS.join(", ")}; errors a code, unknown or json-mode), not ${raw}`,
      );
    const error = match[2] === "unknown" || match[2] === "json-mode" ? match[2] : Number(match[2]);
    scripts.set(part, { error, times: match[3] === undefined ? Infinity : Number(match[3]) });
  }
  return scripts;
}

/** The error as the binding throws it: a documented code with its name and HTTP status. */
export function scriptedError(error: ScriptedError): Error {
  const note = "(simulated: SIMULATE_ERRORS)";
  if (error === "unknown") return new Error(`internal failure ${note}`);
  if (error === "json-mode") return new Error(`JSON Mode couldn't be met ${note}`);
  const documented = documentedError(error);
  const status = documented?.httpStatus ?? 500;
  const name = documented?.name ?? "undocumented error";
  return Object.assign(new Error(`${error}: ${name} ${note}`), { code: error, status });
}

/** Counts each part's calls and throws while its script says the call fails. */
export class ErrorScripts {
  private readonly calls = new Map<ErringPart, number>();

  constructor(private readonly scripts: ScriptedErrors = new Map()) {}

  /** Throws the part's scripted error when this call is one that fails. */
  check(part: ErringPart): void {
    const script = this.scripts.get(part);
    if (!script) return;
    const n = (this.calls.get(part) ?? 0) + 1;
    this.calls.set(part, n);
    if (n <= script.times) throw scriptedError(script.error);
  }
}
