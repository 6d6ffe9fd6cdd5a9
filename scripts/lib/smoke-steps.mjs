// The smoke check's steps, each one call sequence against a running service that answers a
// short line or throws one. Nothing here prints the key or a presigned URL: errors carry
// statuses, problem details and S3 error codes only.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./local.mjs";

/**
 * The smoke clip: spoken sentences and on-screen signs, no caption track and no tag
 * (test/fixtures/media/README.md), so only speech recognition and vision can understand it.
 * `word` is spoken and shown nowhere; `question` asks what is said.
 */
export const FIXTURE = {
  file: "test/fixtures/media/smoke-clip.mp4",
  word: "forklift",
  question: "Does every visitor wear a yellow helmet?",
};
export const ANSWER_KEY = "helmets";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** What a problem document or body says, in one short line. */
export function said(text) {
  try {
    const body = JSON.parse(text);
    return [body.code, body.detail ?? body.title].filter(Boolean).join(": ") || text.slice(0, 120);
  } catch {
    return text.replace(/\s+/g, " ").slice(0, 120);
  }
}

/** Calls the API with the key; answers the JSON body or throws on an unexpected status. */
export function apiClient(baseUrl, key) {
  return async (method, route, body, expected = [200]) => {
    const res = await fetch(`${baseUrl}/api/v1alpha1${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!expected.includes(res.status))
      throw new Error(`${method} ${route.split("?")[0]} answered ${res.status}: ${said(text)}`);
    return text === "" ? null : JSON.parse(text);
  };
}

/** Polls `probe` every `everyMs` until it answers something, or fails naming `what`. */
export async function until(what, timeoutMs, probe, everyMs = 1000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s ${what}`);
    await sleep(everyMs);
  }
}

/** GET /healthz until it answers 200 (a new custom domain can take a while); says its body. */
export async function health(ctx) {
  const deadline = Date.now() + ctx.timeoutMs;
  let last = "no answer";
  for (;;) {
    try {
      const res = await fetch(`${ctx.baseUrl}/healthz`);
      const text = await res.text();
      if (res.ok) return text.replace(/\s+/g, " ").trim().slice(0, 200);
      last = `answered ${res.status}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    if (Date.now() > deadline)
      throw new Error(`/healthz did not answer 200 in ${ctx.timeoutMs / 1000} s (${last})`);
    await sleep(1000);
  }
}

/** Opens an upload of `file` (from the repository root), PUTs it and completes it. */
export async function uploadFile(ctx, file, filename = path.basename(file)) {
  const bytes = readFileSync(path.join(ROOT, file));
  const session = await ctx.api("POST", "/videos", { filename, file_size: bytes.length }, [201]);
  const put = await fetch(session.target.url, {
    method: "PUT",
    headers: session.target.headers,
    body: bytes,
  });
  const answer = await put.text();
  if (!put.ok) {
    const code = answer.match(/<Code>([^<]+)<\/Code>/)?.[1] ?? "no S3 error code";
    throw new Error(`PUT to the presigned target answered ${put.status} (${code})`);
  }
  if (!put.headers.get("etag")) throw new Error("PUT to the presigned target answered no ETag");
  await ctx.api("POST", `/videos/${session.video_id}/upload/complete`, {});
  return { videoId: session.video_id, bytes: bytes.length };
}

/** Uploads the smoke clip through its presigned target. */
export async function upload(ctx) {
  const { videoId, bytes } = await uploadFile(ctx, FIXTURE.file, "smoke-clip.mp4");
  ctx.videoId = videoId;
  return `${ctx.videoId} (${bytes} bytes through the presigned target)`;
}

/** Waits until `videoId` is completed (or fails); answers the video. */
export async function completed(ctx, videoId) {
  return until(`waiting for ${videoId} to be indexed`, ctx.timeoutMs, async () => {
    const v = await ctx.api("GET", `/videos/${videoId}`);
    if (v.status === "failed")
      throw new Error(`processing failed: ${said(JSON.stringify(v.error))}`);
    return v.status === "completed" ? v : undefined;
  });
}

/** Waits until the video is completed (processed and searchable). */
export async function indexed(ctx) {
  const started = Date.now();
  ctx.video = await completed(ctx, ctx.videoId);
  return `${ctx.videoId} completed after ${seconds(started)} (${ctx.video.duration} s of video)`;
}

/** Creates a one-answer profile asking what is said, and runs it over the video to its end. */
export async function analyse(ctx) {
  const profile = await ctx.api(
    "POST",
    "/profiles",
    {
      name: "Smoke check",
      instructions: "Answer from what is said in the video.",
      answer_specs: [
        {
          answer_key: ANSWER_KEY,
          answer_type: "verdict",
          description: FIXTURE.question,
          evidence: { accepted_types: ["transcript"], required: true },
        },
      ],
    },
    [201],
  );
  ctx.profileId = profile.id;
  const started = Date.now();
  const accepted = await ctx.api(
    "POST",
    "/runs",
    { source_ids: [ctx.videoId], profile_id: profile.id, formats: ["markdown"] },
    [202],
  );
  ctx.runId = accepted.id;
  const run = await until("waiting for the run to end", ctx.timeoutMs, async () => {
    const r = await ctx.api("GET", `/runs/${ctx.runId}`);
    return ["completed", "failed", "canceled"].includes(r.status) ? r : undefined;
  });
  if (run.status !== "completed")
    throw new Error(`run ${ctx.runId} ${run.status}: ${said(JSON.stringify(run.error ?? {}))}`);
  return `${ctx.runId} completed after ${seconds(started)}`;
}

/** Reads the run's Markdown report, as JSON with its content and as text/markdown. */
export async function report(ctx) {
  const found = await until("waiting for the run's report", ctx.timeoutMs, async () => {
    const page = await ctx.api("GET", `/reports?run_id=${ctx.runId}&expand[]=content`);
    return page.data.find((r) => r.format === "markdown");
  });
  if (!found.content?.includes(`## ${ANSWER_KEY}`))
    throw new Error(`report ${found.id} has no section for ${ANSWER_KEY}`);
  const res = await fetch(`${ctx.baseUrl}/api/v1alpha1/reports/${found.id}`, {
    headers: { authorization: `Bearer ${ctx.key}`, accept: "text/markdown" },
  });
  const text = await res.text();
  if (!res.ok || !res.headers.get("content-type")?.startsWith("text/markdown"))
    throw new Error(`GET /reports/${found.id} as text/markdown answered ${res.status}`);
  return `${found.id} markdown, ${Buffer.byteLength(text)} bytes`;
}
