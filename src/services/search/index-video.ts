import { runBatch } from "../../db/client";
import { insertEventStatement } from "../../db/repos/events";
import { replaceSearchTextStatements, type SearchTextRow } from "../../db/repos/search";
import { listSegments } from "../../db/repos/segments";
import { countStatements } from "../../db/repos/usage";
import {
  findVideoById,
  updateVideoStatement,
  type VideoRow,
  videoIsIn,
} from "../../db/repos/videos";
import { dayOf, modelCounts, type UsageCount } from "../../domain/usage";
import { PROCESSING_PROGRESS } from "../../domain/video";
import { nowIso } from "../../lib/clock";
import type { IndexVideoMessage } from "../../lib/queue-messages";
import { searchText } from "../../lib/text/search-text";
import type { VectorRecord } from "../../ports/vector-index/port";
import type { Deps } from "../deps";
import { describeUnderstanding } from "../media/understood";
import { videoMedia } from "../media/urls";
import { presentVideo } from "../presenters/video";
import { isFinal } from "../processing/video-states";

/** Segments embedded per call, so a long video does not make one huge request. */
const EMBED_BATCH = 64;

/**
 * Makes a processed video searchable: learns and embeds its segments, upserts the vectors,
 * then in one D1 batch writes the full-text rows, marks the video completed, announces
 * `video.indexed` and counts the processing in usage (its seconds, the embedding calls of this
 * delivery). A video is searchable only once all of that is in. Safe to redeliver.
 */
export async function indexVideo(
  deps: Pick<Deps, "db" | "ports">,
  message: IndexVideoMessage,
): Promise<void> {
  const { db, ports } = deps;
  const video = await findVideoById(db, message.video_id);
  if (!video || video.workspaceId !== message.workspace_id) return;
  if (isFinal(video)) return;
  const segments = await listSegments(db, video.id);
  const texts = segments
    .map((segment) => ({ segment, text: searchText(segment) }))
    .filter((entry) => entry.text !== "");

  await ports.embedder.learn(
    video.workspaceId,
    video.id,
    texts.map((entry) => entry.text),
  );
  const records: VectorRecord[] = [];
  let embeddingCalls = 0;
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const batch = texts.slice(i, i + EMBED_BATCH);
    const batchTexts = batch.map((entry) => entry.text);
    const vectors = await ports.embedder.embed(video.workspaceId, batchTexts, "document");
    embeddingCalls += ports.embedder.modelCalls?.(batchTexts) ?? 0;
    batch.forEach((entry, j) => {
      const values = vectors[j];
      if (values) records.push({ id: entry.segment.id, values, metadata: { video_id: video.id } });
    });
  }
  if (records.length > 0) await ports.vectorIndex.upsert(video.workspaceId, records);

  const rows: SearchTextRow[] = texts.map((entry) => ({
    segmentId: entry.segment.id,
    workspaceId: video.workspaceId,
    videoId: video.id,
    body: entry.text,
  }));
  const updatedAt = nowIso();
  const progress = PROCESSING_PROGRESS.completed;
  // Kept beside the media it follows from, so search counts such videos from an index.
  const nothingUnderstood =
    describeUnderstanding(videoMedia(video), video.duration)?.warning !== undefined;
  const change = { status: "completed" as const, progress, updatedAt, nothingUnderstood };
  const completed: VideoRow = { ...video, ...change };
  // Two deliveries of this message may get here at once. Every statement runs only while the
  // video is processing and the move to completed comes last, so in D1's serialized batches
  // exactly one writes the rows, the completion and the event; the other writes nothing.
  const whileProcessing = videoIsIn(video.id, ["processing"]);
  const seconds: UsageCount = { metric: "processed_seconds", key: "", value: video.duration ?? 0 };
  const counts = [
    ...(seconds.value > 0 ? [seconds] : []),
    ...modelCounts([embeddingUse(ports.embedder.model, embeddingCalls)]),
  ];
  const target = { workspaceId: video.workspaceId, videoId: video.id };
  await runBatch(db, [
    ...countStatements(db, target, dayOf(updatedAt), counts, whileProcessing),
    ...replaceSearchTextStatements(db, video.id, rows, whileProcessing),
    insertEventStatement(
      db,
      {
        workspaceId: video.workspaceId,
        type: "video.indexed",
        data: { video: presentVideo(completed) },
        requestId: video.workRequestId,
      },
      whileProcessing,
    ),
    updateVideoStatement(db, video.id, change, ["processing"]),
  ]);
}

/** Embedding calls as a model's use: the model reports no tokens. */
function embeddingUse(model: string, calls: number) {
  return { model, calls, input_tokens: 0, output_tokens: 0, audio_seconds: 0 };
}
