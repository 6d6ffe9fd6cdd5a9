import { describe, it } from "vitest";
import { expectConsecutiveParallelAppends } from "../heads/shared";
import { createBody, versionBody } from "./bodies";

describe("POST /report-templates/{report_template_id}/versions under concurrency", () => {
  it("gives N parallel appends the versions 2..N+1, with no gap and no duplicate", async () => {
    await expectConsecutiveParallelAppends({
      path: "/report-templates",
      versionTable: "report_template_versions",
      headColumn: "report_template_id",
      createBody,
      versionBody,
    });
  });
});
