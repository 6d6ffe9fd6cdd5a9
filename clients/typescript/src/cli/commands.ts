import type { VasClient } from "../client.js";
import { realClock } from "../clock.js";
import type { Report, Run, SearchResultPage, Video } from "../types.js";
import { EXIT, type Settings, UsageError } from "./config.js";
import { printJson, printTable } from "./output.js";
import { printVideos } from "./video-output.js";

async function take<T>(items: AsyncIterable<T>, limit: number): Promise<T[]> {
  const taken: T[] = [];
  for await (const item of items) {
    if (taken.length >= limit) break;
    taken.push(item);
  }
  return taken;
}

function videoRows(videos: Video[]) {
  return videos.map((v) => [v.id, v.status, v.duration?.toFixed(1) ?? "", v.filename]);
}

export async function listVideos(client: VasClient, s: Settings, flags: { limit: number }) {
  const videos = await take(client.videos(), flags.limit);
  if (s.json) printJson(videos);
  else printTable(videoRows(videos));
  return EXIT.ok;
}

export async function getVideo(client: VasClient, s: Settings, id: string) {
  const video = await client.getVideo(id);
  if (s.json) printSingle(video);
  else printVideos([video], videoRows([video]), false);
  return EXIT.ok;
}

/** One video as JSON on stdout, its warning on stderr. */
function printSingle(video: Video): void {
  printJson(video);
  const warning = video.media?.understood?.warning;
  if (warning !== undefined) process.stderr.write(`vas: ${video.id}: ${warning}\n`);
}

export async function removeVideo(client: VasClient, s: Settings, id: string) {
  await client.deleteVideo(id);
  if (s.json) printJson({ id, deleted: true });
  else printTable([[id, "deleted"]]);
  return EXIT.ok;
}

export async function waitVideo(client: VasClient, s: Settings, id: string, timeout: number) {
  const video = await client.waitForVideo(id, { timeoutMs: timeout * 1000 });
  if (s.json) printSingle(video);
  else printVideos([video], videoRows([video]), false);
  return EXIT.ok;
}

/** The first line of a result's matching text, cut to fit a terminal row. */
function firstLine(text: string | undefined, width = 60): string {
  const line = (text ?? "").split("\n")[0] ?? "";
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** Whether a search left some videos out, or searched some only by filename, title and tags. */
function leftOut(scope: NonNullable<SearchResultPage["scope"]>): boolean {
  return scope.videos_not_searched + scope.videos_without_understanding > 0;
}

export async function search(
  client: VasClient,
  s: Settings,
  query: string,
  flags: { video?: string[]; limit: number; threshold?: number },
) {
  const page = await client.search({
    query,
    limit: flags.limit,
    ...(flags.threshold === undefined ? {} : { threshold: flags.threshold }),
    ...(flags.video?.length ? { video_ids: flags.video } : {}),
  });
  if (s.json) printJson(page.data);
  else
    printTable(
      page.data.map((r) => [
        r.score.toFixed(2),
        `${r.time_position.toFixed(1)}s`,
        r.video_id,
        r.title,
        // A filename is no evidence of what the video holds: the row says which it is.
        r.matches.every((m) => m.kind === "filename")
          ? `(filename) ${firstLine(r.text)}`
          : firstLine(r.text),
      ]),
    );
  // An empty answer says why, and one with results what it left out; on stderr under --json
  // so stdout stays the bare array.
  const { explanation, scope } = page;
  if (explanation !== undefined) {
    if (s.json) process.stderr.write(`vas: no result: ${explanation.detail}\n`);
    else process.stdout.write(`No result. ${explanation.detail}\n`);
  } else if (scope !== undefined && leftOut(scope)) {
    if (s.json) process.stderr.write(`vas: note: ${scope.detail}\n`);
    else process.stdout.write(`Note: ${scope.detail}\n`);
  }
  return EXIT.ok;
}

export async function profiles(client: VasClient, s: Settings) {
  const all = await take(client.profiles(), 1000);
  if (s.json) printJson(all);
  else printTable(all.map((p) => [p.id, `v${p.latest_version}`, p.name ?? ""]));
  return EXIT.ok;
}

function formatOf(value: string): "json" | "markdown" {
  if (value === "json" || value === "markdown") return value;
  throw new UsageError(`--report must be json or markdown, not ${value}.`);
}

/**
 * The content of the run's report in `format`, read with `expand[]=content`. Reports are
 * rendered just after the run completes, so a missing one is looked for again for a while.
 */
async function reportContent(client: VasClient, runId: string, format: "json" | "markdown") {
  for (let attempt = 0; attempt < 50; attempt++) {
    for await (const report of client.reports({ run_id: runId })) {
      if (report.format !== format) continue;
      const got = await client.getReport(report.id);
      return typeof got === "string" ? got : (got.content ?? "");
    }
    await realClock.sleep(200);
  }
  throw new UsageError(`Run ${runId} has no ${format} report.`);
}

/**
 * What a person must see beside a run's row: its notices (a video nothing was heard or seen
 * of, so its answers are not checked) and its limitations.
 */
function runNotes(run: Run): string[] {
  const notes = (run.notices ?? []).map((notice) => `Note: ${notice.detail}`);
  const limitations = run.analysis?.limitations ?? [];
  if (limitations.length > 0) notes.push(`Limitations: ${limitations.join(", ")}`);
  return notes;
}

export async function run(
  client: VasClient,
  s: Settings,
  flags: { profile: string; video: string[]; wait?: boolean; report?: string; timeout: number },
) {
  const report = flags.report === undefined ? undefined : formatOf(flags.report);
  let current: Run = await client.createRun({
    profile_id: flags.profile,
    source_ids: flags.video,
    ...(report ? { formats: [report] } : {}),
  });
  if (flags.wait || report)
    current = await client.waitForRun(current.id, { timeoutMs: flags.timeout * 1000 });
  const notes = runNotes(current);
  if (report || s.json) {
    // stdout stays the bare report or JSON, for files and scripts; the notes go to stderr.
    for (const note of notes) process.stderr.write(`vas: ${note}\n`);
  }
  if (report) {
    const content = await reportContent(client, current.id, report);
    process.stdout.write(content.endsWith("\n") ? content : `${content}\n`);
  } else if (s.json) printJson(current);
  else {
    printTable([
      [
        current.id,
        current.status,
        (current.analysis?.source_ids ?? current.workflow?.source_snapshot?.source_ids ?? []).join(
          ",",
        ),
      ],
    ]);
    for (const note of notes) process.stdout.write(`${note}\n`);
  }
  return EXIT.ok;
}

export async function reports(client: VasClient, s: Settings, runId: string) {
  const all: Report[] = await take(client.reports({ run_id: runId }), 1000);
  if (s.json) printJson(all);
  else printTable(all.map((r) => [r.id, r.format, r.created_at]));
  return EXIT.ok;
}
