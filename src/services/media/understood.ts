import type { Database } from "../../db/client";
import { deletedVideoIds } from "../../db/repos/video-erasure";
import { findVideos } from "../../db/repos/videos";
import { COMPLETE_SHARE, type ExtractionExtent, type SpeechPresence } from "../../domain/evidence";
import type { VideoMedia } from "../../domain/video";

/** What processing understood of a video, in seconds and in words (`media.understood`). */
export interface Understanding {
  /** Seconds whose speech is known: the longest caption track or recognised speech. */
  heard_seconds: number;
  /**
   * Seconds whose pictures were described or read for on-screen text (frames sampled × their
   * spacing), whichever is more.
   */
  seen_seconds: number;
  /** The evidence sources the heard seconds come from, e.g. `text-track:0:eng`. */
  heard_from: string[];
  /**
   * Seconds in which a speech detector found speech, transcribed or not (local adapters with
   * the screen reader's speech spans only; absent where none ran).
   */
  speech_seconds?: number;
  /** One or two sentences saying what was heard and seen, and from where. */
  summary: string;
  /** Present when nothing was heard or seen: why, what that means, and what to do. */
  warning?: string;
}

const LOCAL_ENGINE_PREFIX = "local-media@";

const round1 = (seconds: number) => Math.round(seconds * 10) / 10;

function trackName(source: string, origin: "captions" | "speech"): string {
  if (origin === "speech") return "recognised speech";
  if (source.startsWith("captions-uploaded:")) {
    return `uploaded captions (${source.slice("captions-uploaded:".length)})`;
  }
  const [, index, language] = source.split(":");
  return `text track ${index ?? "?"}${language ? ` (${language})` : ""}`;
}

/** Why nothing was heard, from the stored limitations, in words a new user can act on. */
function whyNotHeard(local: boolean, media: VideoMedia): string {
  const limitations = new Set(media.limitations ?? []);
  const reasons = ["the file has no caption or subtitle track"];
  if (media.audio === null || limitations.has("no-audio-track")) reasons.push("no audio track");
  else if (local) reasons.push("this service's media engine does not recognise speech");
  else if (limitations.has("input-too-large-for-edge"))
    reasons.push("the file is too large for speech recognition at the edge");
  else reasons.push("speech recognition heard nothing");
  return reasons.join(", and ");
}

function whyNotSeen(local: boolean, limitations: ReadonlySet<string>): string {
  if (limitations.has("no-video-track")) return "the file has no video track";
  if (local && limitations.has("screen-reader-not-running"))
    return "on-screen text was not read (the screen reader was not running), and this service's media engine does not describe pictures";
  if (local && limitations.has("screen-reader-unavailable"))
    return "on-screen text could not be read (the screen reader did not answer), and this service's media engine does not describe pictures";
  if (local && limitations.has("no-text-on-screen"))
    return "no text was read in the frames read for on-screen text, and this service's media engine does not describe pictures";
  if (local) return "no frame could be read for on-screen text";
  if (limitations.has("input-too-large-for-edge"))
    return "the file is too large for frame extraction at the edge";
  return "no frame could be described";
}

function ofDuration(duration: number | null): string {
  return duration !== null && duration > 0 ? ` of ${round1(duration)} s` : "";
}

/**
 * Says what processing understood of a video from its measured extents: seconds heard
 * (captions or recognised speech) and seen (described frames), from which tracks, and a
 * plain warning when that is nothing, so a user learns it from the video itself rather
 * than from an empty search.
 */
export function describeUnderstanding(
  media: VideoMedia,
  duration: number | null,
): Understanding | undefined {
  const extent: ExtractionExtent | undefined = media.extent;
  if (extent === undefined) return undefined;
  const local = (media.engine ?? "").startsWith(LOCAL_ENGINE_PREFIX);
  const limitations = new Set(media.limitations ?? []);
  const heard = extent.transcript.filter((entry) => entry.seconds > 0);
  const heardSeconds = round1(Math.max(0, ...heard.map((entry) => entry.seconds)));
  const describedSeconds = round1(extent.scene.seconds);
  // Frames read for text that held none were inspected, not seen: nothing in them is known.
  const readSeconds = limitations.has("no-text-on-screen") ? 0 : round1(extent.ocr.seconds);
  const seenSeconds = Math.max(describedSeconds, readSeconds);
  const sentences: string[] = [];
  const presence = extent.speech;
  const untranscribed =
    presence !== undefined &&
    presence.speech_seconds > 0 &&
    !extent.transcript.some((t) => t.origin === "speech" && t.seconds > 0);
  if (heard.length > 0) {
    const from = heard.map((entry) => trackName(entry.source, entry.origin)).join(", ");
    sentences.push(`Heard ${heardSeconds} s${ofDuration(duration)} from ${from}.`);
  } else if (!untranscribed) {
    sentences.push(`Heard nothing: ${whyNotHeard(local, media)}.`);
  }
  if (presence !== undefined) sentences.push(speechSentence(presence, untranscribed));
  if (describedSeconds > 0)
    sentences.push(`Saw ${describedSeconds} s${ofDuration(duration)} through described frames.`);
  else if (readSeconds > 0)
    sentences.push(
      `Saw ${readSeconds} s${ofDuration(duration)} through frames read for on-screen text (pictures are not described).`,
    );
  else sentences.push(`Saw nothing: ${whyNotSeen(local, limitations)}.`);
  const understanding: Understanding = {
    heard_seconds: heardSeconds,
    seen_seconds: seenSeconds,
    heard_from: heard.map((entry) => entry.source),
    summary: sentences.join(" "),
  };
  if (presence !== undefined) understanding.speech_seconds = round1(presence.speech_seconds);
  if (untranscribed) understanding.warning = untranscribedWarning(presence);
  else if (heard.length === 0 && seenSeconds === 0) understanding.warning = nothingWarning(local);
  return understanding;
}

const spanText = ({ start, end }: { start: number; end: number }) =>
  `${round1(start)}–${round1(end)} s`;

/** Where speech was found, or that none was, and over how much of the audio. */
function speechSentence(presence: SpeechPresence, untranscribed: boolean): string {
  const inspected = round1(presence.inspected.seconds);
  if (presence.speech_seconds > 0) {
    const shown = presence.spans.slice(0, 3).map(spanText).join(", ");
    const more = presence.spans.length > 3 ? ` and ${presence.spans.length - 3} more` : "";
    const state = untranscribed ? "not transcribed locally" : "transcribed";
    return `Speech present for ${round1(presence.speech_seconds)} s (at ${shown}${more}), ${state}.`;
  }
  if (presence.inspected.share >= COMPLETE_SHARE)
    return `No speech in the audio: all ${inspected} s were inspected.`;
  return `No speech found in the ${inspected} s of audio inspected; the rest was not inspected.`;
}

/** The warning of a video whose speech was found but not transcribed. */
function untranscribedWarning(presence: SpeechPresence): string {
  return `Speech is present for ${round1(presence.speech_seconds)} s but is not transcribed locally, so what was said is not known: answers about it are not checked (speech_not_transcribed). Send a WebVTT or SRT file of what is said with PUT /videos/{video_id}/captions/{language}, start the service with WHISPER_URL set to a whisper.cpp server, or use a deployment with the production adapters.`;
}

/** The warning of a video in which nothing was heard or seen. */
function nothingWarning(local: boolean): string {
  const remedy = local
    ? "Send a WebVTT or SRT file of what is said with PUT /videos/{video_id}/captions/{language} (vas captions put), add a caption or subtitle track to the file (MP4 tx3g or WebVTT; WebM or MKV WebVTT, SRT or ASS) and upload it again, or use a deployment with the production adapters, which recognise speech and describe frames."
    : "Add a caption or subtitle track to the file and upload it again.";
  return `Nothing in this video was heard or seen, so search finds it only by its filename, title and tags, and every rule or answer about it is not checked. ${remedy}`;
}

/**
 * A note on a run about one of its videos: that nothing in it was heard or seen, or that it was
 * deleted (steps after the deletion read nothing of it).
 */
export interface RunNotice {
  code: "nothing_understood" | "source_deleted";
  video_id: string;
  detail: string;
}

/** What a run says of a source deleted before or while it ran. */
export const SOURCE_DELETED_DETAIL =
  "This video was deleted: the run read nothing of it from then on, so its answers leave it out, and its media and index are erased.";

/**
 * The run's notices on its sources, in `source_ids` order: videos in which nothing was heard or
 * seen (so a run whose answers are all not checked says why) and videos deleted since.
 */
export async function runNotices(
  db: Database,
  workspaceId: string,
  videoIds: readonly string[],
): Promise<RunNotice[]> {
  const rows = await findVideos(db, workspaceId, videoIds);
  const notices = rows.flatMap((row): RunNotice[] => {
    const warning = describeUnderstanding(row.media ?? {}, row.duration)?.warning;
    if (warning === undefined) return [];
    const name = row.media?.title ?? row.filename;
    return [{ code: "nothing_understood", video_id: row.id, detail: `${name}: ${warning}` }];
  });
  if (rows.length < new Set(videoIds).size) {
    for (const id of await deletedVideoIds(db, workspaceId, videoIds)) {
      notices.push({ code: "source_deleted", video_id: id, detail: SOURCE_DELETED_DETAIL });
    }
  }
  const order = new Map(videoIds.map((id, index) => [id, index]));
  return notices.sort((a, b) => (order.get(a.video_id) ?? 0) - (order.get(b.video_id) ?? 0));
}
