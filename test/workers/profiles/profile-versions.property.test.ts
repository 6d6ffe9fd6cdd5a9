import { describe, it } from "vitest";
import { expectConsecutiveParallelAppends } from "../heads/shared";
import { createBody, versionBody } from "./bodies";

describe("POST /profiles/{profile_id}/versions under concurrency", () => {
  it("gives N parallel appends the versions 2..N+1, with no gap and no duplicate", async () => {
    await expectConsecutiveParallelAppends({
      path: "/profiles",
      versionTable: "profile_versions",
      headColumn: "profile_id",
      createBody,
      versionBody,
    });
  });
});
