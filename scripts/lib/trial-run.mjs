// One file of the trial: upload it, wait for it to be indexed, read what the service says it
// heard and saw, search its spoken word, and count the model calls where they can be counted.

import { said, sleep, uploadFile } from "./smoke-steps.mjs";
import { plannedCalls } from "./trial-set.mjs";

/** What the simulated deployment counted: model calls started per task (null elsewhere). */
async function simulatorCalls(ctx) {
  if (!ctx.simulated) return null;
  const res = await fetch(`${ctx.baseUrl}/__simulator/stats`);
  if (!res.ok) return null;
  return (await res.json()).model_calls_started ?? null;
}

function difference(after, before) {
  if (!after || !before) return null;
  return Object.fromEntries(
    Object.entries(after)
      .map(([task, n]) => [task, n - (before[task] ?? 0)])
      .filter(([, n]) => n > 0),
  );
}

/** Polls the video every second until it is completed or failed, or `timeoutMs` passes. */
async function settle(ctx, videoId, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const video = await ctx.api("GET", `/videos/${videoId}`);
    if (video.status === "completed" || video.status === "failed") return video;
    if (Date.now() > deadline) return { ...video, timed_out: true };
    await sleep(1000);
  }
}

/** Searches the file's spoken word until a result of this video matches it, for at most `ms`. */
async function findWord(ctx, videoId, word, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    const page = await ctx.api("POST", "/search", { query: word, limit: 20 });
    const hit = page.data.find((r) => r.video_id === videoId);
    // A filename holding the word proves nothing was heard: only what the video holds counts.
    const match = hit?.matches.find(
      (m) => m.kind !== "filename" && m.text.toLowerCase().includes(word.toLowerCase()),
    );
    if (hit && match)
      return {
        found: true,
        at: hit.time_position,
        kind: match.kind,
        source: match.source,
        text: match.text,
      };
    if (Date.now() > deadline) return { found: false, waited_seconds: Math.round(ms / 1000) };
    await sleep(2000);
  }
}

/** Runs one trial file; never throws for what the service answers, only records it. */
export async function runTrialFile(ctx, entry) {
  const record = {
    name: entry.name,
    file: entry.file,
    what: entry.what,
    codecs: { container: entry.container, video: entry.video, audio: entry.audio },
    spoken_language: entry.language,
  };
  const before = await simulatorCalls(ctx);
  let videoId;
  try {
    ({ videoId } = await uploadFile(ctx, entry.file));
  } catch (error) {
    return { ...record, status: "upload_failed", error: error.message };
  }
  const started = Date.now();
  const video = await settle(ctx, videoId, ctx.fileTimeoutMs);
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const understood = video.media?.understood;
  Object.assign(record, {
    video_id: videoId,
    status: video.timed_out ? "timed_out" : video.status,
    seconds_to_indexed: video.status === "completed" ? seconds : null,
    duration: video.duration ?? null,
    heard_seconds: understood?.heard_seconds ?? 0,
    heard_from: understood?.heard_from ?? [],
    seen_seconds: understood?.seen_seconds ?? 0,
    summary: understood?.summary ?? null,
    limitations: video.media?.limitations ?? [],
    ...(video.status === "failed" ? { error: said(JSON.stringify(video.error ?? {})) } : {}),
  });
  // Counted before the search, whose query is embedded too.
  const after = await simulatorCalls(ctx);
  // A word nobody heard cannot be found; waiting for it would only spend the search timeout.
  record.search =
    video.status === "completed" && record.heard_seconds > 0
      ? { word: entry.word, ...(await findWord(ctx, videoId, entry.word, ctx.searchTimeoutMs)) }
      : { word: entry.word, found: false, not_searched: "nothing was heard" };
  record.model_calls = {
    planned: plannedCalls(record.duration, { audio: entry.audio, video: entry.video }),
    counted_by_simulator: difference(after, before),
  };
  return record;
}
