import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ASYNC_ERROR_CODES,
  type AsyncErrorCode,
  asyncError,
} from "../../../src/errors/async-codes";

const CODES = Object.keys(ASYNC_ERROR_CODES) as AsyncErrorCode[];

describe("the stored async error table", () => {
  it("gives every code one title, whatever the occurrence says", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CODES),
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        (code, detail, nextAction) => {
          const said = {
            ...(detail === undefined ? {} : { detail }),
            ...(nextAction === undefined ? {} : { next_action: nextAction }),
          };
          expect(asyncError(code, said)).toEqual({
            code,
            title: ASYNC_ERROR_CODES[code].title,
            detail: detail ?? ASYNC_ERROR_CODES[code].detail,
            next_action: nextAction ?? ASYNC_ERROR_CODES[code].next_action,
          });
        },
      ),
    );
  });

  it("writes a run's execution failure as clients have always read it", () => {
    expect(asyncError("execution_failed")).toEqual({
      code: "execution_failed",
      title: "The run could not be executed",
      detail: "Executing the run failed after several attempts; no trustworthy result exists.",
      next_action: "Start the run again; if it fails again, contact support with the run id.",
    });
  });
});
