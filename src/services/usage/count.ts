import { runBatch } from "../../db/client";
import { countStatements } from "../../db/repos/usage";
import { dayOf, modelCounts, type UsageCount } from "../../domain/usage";
import { nowIso } from "../../lib/clock";
import type { Deps } from "../deps";

/**
 * Counts one answered POST /search in the workspace's usage, with the embedding calls its
 * query took. A request is answered once (an Idempotency-Key replay runs nothing), so this is
 * one statement of its own.
 */
export async function countSearch(
  deps: Pick<Deps, "db" | "ports">,
  workspaceId: string,
  embedded: readonly string[],
): Promise<void> {
  const { db, ports } = deps;
  const calls = ports.embedder.modelCalls?.(embedded) ?? 0;
  const counts: UsageCount[] = [
    { metric: "searches", key: "", value: 1 },
    ...modelCounts([
      { model: ports.embedder.model, calls, input_tokens: 0, output_tokens: 0, audio_seconds: 0 },
    ]),
  ];
  await runBatch(db, countStatements(db, { workspaceId }, dayOf(nowIso()), counts));
}
