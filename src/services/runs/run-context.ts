import type { EngineVideo } from "../../answer-engine/types";
import { rulesOfSets } from "../../db/repos/rulebooks";
import { findSnapshots, type RunRow } from "../../db/repos/runs";
import { findVideos } from "../../db/repos/videos";
import type { AnswerSpec } from "../../domain/answers";
import type { Rule } from "../../domain/rulebooks";
import type { Deps } from "../deps";
import type { WorkflowSnapshot } from "./create-workflow-run";
import { loadEngineVideos } from "./engine-input";

/** What every step of a run reads: its frozen questions, and its videos as the engine reads them. */
export type RunContext =
  | {
      kind: "analysis";
      run: RunRow;
      instructions: string;
      specs: AnswerSpec[];
      videos: EngineVideo[];
    }
  | {
      kind: "workflow";
      run: RunRow;
      snapshot: WorkflowSnapshot;
      rules: Rule[];
      /** One video with its index, as the step that checks it needs it. */
      video(videoId: string): Promise<EngineVideo | null>;
      /**
       * One video without its index (no segments), for steps that ask no model: all the run's
       * videos are read in one query and kept, so such steps cost no read per video.
       */
      listedVideo(videoId: string): Promise<EngineVideo | null>;
      /** The run's sources that still exist, in `source_ids` order (what the plan covers). */
      videoIds(): Promise<string[]>;
    };

/** Videos of a workflow run kept in memory per invocation: steps come video by video. */
const VIDEOS_KEPT = 4;

/** Loads what a run's steps read, once per invocation (the lanes of a batch share it). */
export async function loadRunContext(deps: Pick<Deps, "db">, run: RunRow): Promise<RunContext> {
  const { db } = deps;
  const content = (await findSnapshots(db, run.id)).find((s) => s.kind === "profile")?.content;
  if (!content) throw new Error(`run ${run.id} has no profile snapshot`);
  if (run.kind === "analysis") {
    const profile = content as { instructions: string; answer_specs: AnswerSpec[] };
    const videos = await loadEngineVideos(db, run.workspaceId, run.sourceIds);
    return {
      kind: "analysis",
      run,
      instructions: profile.instructions,
      specs: profile.answer_specs,
      videos,
    };
  }
  const snapshot = content as unknown as WorkflowSnapshot;
  // The snapshot names an immutable rule set version: its rows are the rules frozen at admission.
  const rules =
    (await rulesOfSets(db, [snapshot.rule_set_version_id])).get(snapshot.rule_set_version_id) ?? [];
  const kept = new Map<string, Promise<EngineVideo | null>>();
  let present: Promise<string[]> | undefined;
  let listed: Promise<Map<string, EngineVideo>> | undefined;
  return {
    kind: "workflow",
    run,
    snapshot,
    rules,
    video(videoId) {
      let found = kept.get(videoId);
      if (!found) {
        found = loadEngineVideos(db, run.workspaceId, [videoId]).then((list) => list[0] ?? null);
        kept.set(videoId, found);
        for (const key of kept.keys())
          if (kept.size > VIDEOS_KEPT && key !== videoId) kept.delete(key);
      }
      return found;
    },
    listedVideo(videoId) {
      listed ??= loadEngineVideos(db, run.workspaceId, run.sourceIds, false).then(
        (videos) => new Map(videos.map((video) => [video.id, video])),
      );
      return listed.then((videos) => videos.get(videoId) ?? null);
    },
    videoIds() {
      present ??= findVideos(db, run.workspaceId, run.sourceIds).then((videos) => {
        const ids = new Set(videos.map((video) => video.id));
        return [...new Set(run.sourceIds)].filter((id) => ids.has(id));
      });
      return present;
    },
  };
}

/** Rows a run writes sort by its start plus their position (ids carry that time). */
export function rowTime(context: RunContext, position: number): number {
  return Date.parse(context.run.createdAt) + position;
}
