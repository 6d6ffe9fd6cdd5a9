import { vi } from "vitest";
import type { RunDto } from "../../src/routes/runs/schemas";
import { type Client, expectJson } from "./harness";

/** A profile body asking the warehouse questions of talk.mp4. */
export const SAFETY_PROFILE = {
  name: "Safety briefing review",
  description: "Checks a safety briefing",
  instructions: "Review the safety briefing for the rules it states.",
  answer_specs: [
    {
      answer_key: "vests_required",
      answer_type: "verdict",
      description: "Forklift operators must wear high visibility vests",
      evidence: { accepted_types: ["transcript"], required: true },
    },
    {
      answer_key: "safety_rules",
      answer_type: "timeline",
      description: "safety rules: forklift, spill, fire exits, loading dock",
      evidence: { accepted_types: ["transcript"] },
    },
    {
      answer_key: "signage_visible",
      answer_type: "verdict",
      description: "Warning signs are visible on the racking",
      evidence: { accepted_types: ["scene"], required: true },
    },
  ],
};

/** Creates a profile and returns its id. */
export async function createProfile(
  api: Client,
  body: Record<string, unknown> = SAFETY_PROFILE,
): Promise<string> {
  return (await expectJson<{ id: string }>(await api.post("/profiles", body), 201)).id;
}

/** Polls GET /runs/{id} until the run is final. */
export async function waitForRun(api: Client, runId: string, query = ""): Promise<RunDto> {
  let run: RunDto | undefined;
  await vi.waitUntil(
    async () => {
      run = await expectJson<RunDto>(await api.get(`/runs/${runId}${query}`), 200);
      return ["completed", "failed", "canceled"].includes(run.status);
    },
    { timeout: 20_000, interval: 100 },
  );
  return run as RunDto;
}
