import { readFile } from "node:fs/promises";
import { type CaptionFormat, captionFormatOf } from "../captions.js";
import type { VasClient } from "../client.js";
import { EXIT, type Settings, UsageError } from "./config.js";
import { printJson, printTable } from "./output.js";

function formatFlag(value: string | undefined, file?: string): CaptionFormat {
  if (value === "webvtt" || value === "srt") return value;
  if (value !== undefined) throw new UsageError(`--format must be webvtt or srt, not ${value}.`);
  const named = file === undefined ? "webvtt" : captionFormatOf(file);
  if (named === null) {
    throw new UsageError(
      `Cannot tell the format of ${file}: name it .vtt or .srt, or pass --format.`,
    );
  }
  return named;
}

/** `vas captions ls <video_id>`: the languages heard, with their origin. */
export async function listCaptions(client: VasClient, s: Settings, videoId: string) {
  const { data } = await client.listCaptions(videoId);
  if (s.json) printJson(data);
  else printTable(data.map((t) => [t.language, t.origin, t.source, `${t.seconds}s`]));
  return EXIT.ok;
}

/** `vas captions get <video_id> <language>`: what was heard, as a caption file on stdout. */
export async function getCaptions(
  client: VasClient,
  videoId: string,
  language: string,
  flags: { format?: string },
) {
  process.stdout.write(await client.getCaptions(videoId, language, formatFlag(flags.format)));
  return EXIT.ok;
}

/** `vas captions put <video_id> <language> <file>`: uploads captions; `--wait` for the index. */
export async function putCaptions(
  client: VasClient,
  s: Settings,
  args: { videoId: string; language: string; file: string },
  flags: { format?: string; wait?: boolean; timeout: number },
) {
  const format = formatFlag(flags.format, args.file);
  const text = await readFile(args.file, "utf8");
  const accepted = await client.putCaptions(args.videoId, args.language, text, format);
  const video = flags.wait
    ? await client.waitForVideo(args.videoId, { timeoutMs: flags.timeout * 1000 })
    : null;
  if (s.json) printJson(video ? { ...accepted, status: video.status } : accepted);
  else
    printTable([
      [
        accepted.video_id,
        accepted.language,
        `${accepted.cue_count} cues`,
        video?.status ?? accepted.status,
      ],
    ]);
  return EXIT.ok;
}
