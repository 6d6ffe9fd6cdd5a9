// The smoke check's proof of understanding: what the service says it heard and saw of the
// smoke clip (media.understood, limitations), a search for a word only spoken in it, and an
// answer about what is said that cites speech. The clip has no caption track and no tag, so
// each of these holds only when speech recognition, frame extraction and vision work.
import { ANSWER_KEY, FIXTURE, until } from "./smoke-steps.mjs";

/** Which platform service a limitation code points at, for the reader of a failed line. */
const SERVICE_OF = [
  [/^speech-recognition/, "Whisper"],
  [/^quota-exceeded:workers-ai$/, "Workers AI's allocation"],
  [/^vision/, "the vision model"],
  [/^frame-extraction/, "Media Transformations"],
  [/^quota-exceeded:media-transformations$/, "Media Transformations' allocation"],
  [/^(audio-extraction|cut-unsupported)/, "cutting the file"],
];

/** The limitations about hearing (or seeing), each with the service it points at. */
function reasons(video, pattern) {
  const codes = (video.media?.limitations ?? []).filter((code) => pattern.test(code));
  if (codes.length === 0) return "";
  const services = new Set(
    codes.flatMap((code) => SERVICE_OF.filter(([p]) => p.test(code)).map(([, name]) => name)),
  );
  return ` (limitations: ${codes.join(", ")}${services.size ? `; from ${[...services].join(", ")}` : ""})`;
}

const HEARING = /speech|audio|cut-unsupported|quota-exceeded:workers-ai/;

/** The service's own sentence about hearing ("Heard …") or seeing ("Saw …"). */
function sentence(u, lead) {
  if (!u) return "the video has no media.understood";
  return u.summary.split(/(?<=\.)\s+(?=Heard |Saw )/).find((s) => s.startsWith(lead)) ?? u.summary;
}
const SEEING = /frame|vision|visual|ocr|video-track|cut-unsupported|quota-exceeded/;

/** Seconds heard must be above zero, and from recognised speech (the clip has no captions). */
export async function heard(ctx) {
  const u = ctx.video.media?.understood;
  const of = `of ${ctx.video.duration} s`;
  ctx.heardSeconds = u?.heard_seconds ?? 0;
  if (!u || u.heard_seconds <= 0)
    throw new Error(`0 s ${of}. ${sentence(u, "Heard")}${reasons(ctx.video, HEARING)}`);
  const speech = u.heard_from.filter((source) => source.startsWith("whisper"));
  if (speech.length === 0)
    throw new Error(
      `heard ${u.heard_seconds} s ${of}, but not from speech: ${u.heard_from.join(", ")}`,
    );
  return `${u.heard_seconds} s ${of} from ${speech.join(", ")}${reasons(ctx.video, HEARING)}`;
}

/**
 * Seconds seen through described frames must be above zero: frames only read for on-screen
 * text (the local engine) prove no vision model.
 */
export async function seen(ctx) {
  const u = ctx.video.media?.understood;
  const of = `of ${ctx.video.duration} s`;
  if (!u || u.seen_seconds <= 0)
    throw new Error(`0 s ${of}. ${sentence(u, "Saw")}${reasons(ctx.video, SEEING)}`);
  if (!sentence(u, "Saw").includes("through described frames"))
    throw new Error(`${sentence(u, "Saw")}${reasons(ctx.video, SEEING)}`);
  return `${u.seen_seconds} s ${of} through described frames${reasons(ctx.video, SEEING)}`;
}

/** A search for a word only spoken in the clip finds it, matched in its speech. */
export async function searchSpoken(ctx) {
  const query = FIXTURE.word;
  if (!(ctx.heardSeconds > 0))
    throw new Error(`"${query}" not searched: nothing was heard, so no spoken word can be found`);
  const hit = await until(
    `for "${query}" to find ${ctx.videoId} in its speech`,
    ctx.timeoutMs,
    async () => {
      const page = await ctx.api("POST", "/search", { query, limit: 20 });
      return page.data.find(
        (r) =>
          r.video_id === ctx.videoId &&
          r.matches.some((m) => m.kind === "transcript" && m.source.startsWith("whisper")),
      );
    },
  );
  const match = hit.matches.find((m) => m.source.startsWith("whisper"));
  return `"${query}" found ${ctx.videoId} at ${hit.time_position} s in its speech: "${match.text}"`;
}

/** The run's answer about what is said is found, citing transcript (speech) evidence. */
export async function answer(ctx) {
  const page = await ctx.api("GET", `/runs/${ctx.runId}/answers`);
  const a = page.data.find((x) => x.key === ANSWER_KEY);
  if (!a) throw new Error(`run ${ctx.runId} has no answer ${ANSWER_KEY}`);
  const cited = [
    ...a.answer_payload.evidence_summary.representative,
    ...a.answer_payload.items.flatMap((item) => item.evidence),
  ].filter((e) => e.kind === "transcript" && e.video_id === ctx.videoId);
  const state = `${a.result_state}${a.reason_code ? ` (${a.reason_code})` : ""}`;
  if (a.result_state !== "found" || cited.length === 0)
    throw new Error(
      `"${FIXTURE.question}" is ${state}${cited.length === 0 ? ", citing no speech" : ""}: ${a.answer_payload.summary}`,
    );
  const first = cited[0];
  return `"${FIXTURE.question}" found (${a.answer_payload.value}), citing speech at ${first.start_time}–${first.end_time} s: "${first.text}"`;
}
