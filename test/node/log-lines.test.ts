import path from "node:path";
import { describe, expect, it } from "vitest";
import { readWorkerSources } from "./layering";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** The one file that writes to the console: every line goes through its logger. */
const LOGGER = "src/lib/log.ts";

describe("the Worker's log lines", () => {
  it("all go through the logger, which carries the request id of the work", () => {
    const direct = [...readWorkerSources(ROOT)]
      .filter(([file, text]) => file !== LOGGER && /\bconsole\s*\./.test(text))
      .map(([file]) => file);
    expect(direct).toEqual([]);
  });
});
