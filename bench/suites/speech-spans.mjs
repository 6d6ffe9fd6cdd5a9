// Where speech is, under the local adapters: how well the screen reader's Silero VAD finds the
// speech of test/fixtures/media/spoken.mp4 (precision and coverage by time against the truth
// its maker measured), that it finds none in music or noise, and how long 5 minutes of audio
// take (spoken.mp4's track looped), as a ratio of the audio's duration.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";
import { postToReader, startScreenReader } from "../../scripts/lib/screen-reader.mjs";

export const name = "speech-spans";
export const ownService = true;

const MEDIA = path.join(ROOT, "test", "fixtures", "media");
/** spoken.mp4's speech, as make-speech-span-fixtures.sh measured it (silencedetect). */
const TRUTH = [
  [4.01, 10.1],
  [20.01, 27.62],
];
/** Fixtures without speech: a plucked melody, and voice-like noise and tones. */
const NO_SPEECH = ["music.mp4", "voice-noise.mp4", "voice-tone.mp4"];
const LONG_SECONDS = 300;
const ROUNDS = 3;

async function hear(reader, bytes) {
  const started = performance.now();
  const res = await postToReader(reader, "/v1/speech", bytes);
  if (!res.ok) throw new Error(`screen reader: ${res.status} ${await res.text()}`);
  return { ...(await res.json()), elapsed: (performance.now() - started) / 1000 };
}

const total = (spans) => spans.reduce((sum, [s, e]) => sum + (e - s), 0);
const overlap = (a, b) =>
  a.reduce(
    (sum, [s, e]) =>
      sum + b.reduce((t, [u, v]) => t + Math.max(0, Math.min(e, v) - Math.max(s, u)), 0),
    0,
  );
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** spoken.mp4's audio looped to `seconds`, as an M4A file in `dir`. */
function loopedAudio(dir, seconds) {
  const ffmpeg = createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg").path;
  const out = path.join(dir, "looped.m4a");
  const made = spawnSync(ffmpeg, [
    ...["-hide_banner", "-loglevel", "error", "-y", "-stream_loop", "-1"],
    ...["-i", path.join(MEDIA, "spoken.mp4"), "-vn", "-t", String(seconds)],
    ...["-c:a", "aac", "-b:a", "64k", out],
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg: ${made.stderr}`);
  return readFileSync(out);
}

export async function run() {
  const loading = performance.now();
  const reader = await startScreenReader({ ...process.env, SCREEN_READER: undefined });
  if (reader.notice) throw new Error(reader.notice);
  if (!reader.speech) throw new Error(reader.speechNotice);
  const startSeconds = (performance.now() - loading) / 1000;
  const work = mkdtempSync(path.join(tmpdir(), "vas-bench-speech-"));
  try {
    const spoken = await hear(reader, readFileSync(path.join(MEDIA, "spoken.mp4")));
    const inside = overlap(spoken.spans, TRUTH);
    const silent = [];
    for (const file of NO_SPEECH) {
      const heard = await hear(reader, readFileSync(path.join(MEDIA, file)));
      silent.push(`\`${file}\` ${total(heard.spans).toFixed(2)} s`);
    }

    // The loop repeats spoken.mp4's truth every `spoken.seconds`.
    const looped = loopedAudio(work, LONG_SECONDS);
    const loopTruth = [];
    for (let at = 0; at < LONG_SECONDS; at += spoken.seconds)
      for (const [s, e] of TRUTH) if (at + s < LONG_SECONDS) loopTruth.push([at + s, at + e]);
    const rounds = [];
    let long;
    for (let round = 0; round < ROUNDS; round++) {
      long = await hear(reader, looped);
      rounds.push(long.elapsed);
    }
    const longSeconds = median(rounds);
    const longInside = overlap(long.spans, loopTruth);
    const pct = (part, whole) => `${((part / whole) * 100).toFixed(1)} %`;
    return [
      `Silero VAD v5 (\`${reader.speech}\`) in the screen reader, on one ONNX Runtime thread; truth: \`spoken.mp4\`'s phrases at ${TRUTH.map(([s, e]) => `${s}–${e} s`).join(" and ")} (\`make-speech-span-fixtures.sh\`).`,
      "",
      "| measure | value |",
      "| --- | --- |",
      `| \`spoken.mp4\` (${spoken.seconds.toFixed(1)} s): first and last speech found | ${spoken.spans[0]?.[0] ?? "–"} s, ${spoken.spans.at(-1)?.[1] ?? "–"} s |`,
      `| speech found that lies inside the truth (precision by time) | ${inside.toFixed(2)} of ${total(spoken.spans).toFixed(2)} s (${pct(inside, total(spoken.spans))}) |`,
      `| truth covered by what was found (coverage by time; the pauses between phrases are not speech to Silero) | ${inside.toFixed(2)} of ${total(TRUTH).toFixed(2)} s (${pct(inside, total(TRUTH))}) |`,
      `| speech found where there is none | ${silent.join(", ")} |`,
      `| reader start (OCR and VAD models loaded) | ${startSeconds.toFixed(1)} s |`,
      `| ${LONG_SECONDS / 60} minutes of audio (\`spoken.mp4\`'s track looped, ${(looped.length / 1e6).toFixed(1)} MB AAC), decoded and searched for speech, median of ${ROUNDS} | ${longSeconds.toFixed(2)} s (${(longSeconds / LONG_SECONDS).toFixed(3)} × its duration; rounds ${rounds.map((r) => r.toFixed(2)).join(", ")} s) |`,
      `| the same 5 minutes: precision and coverage by time | ${pct(longInside, total(long.spans))}, ${pct(longInside, total(loopTruth))} |`,
    ].join("\n");
  } finally {
    reader.child?.kill("SIGTERM");
    rmSync(work, { recursive: true, force: true });
  }
}
