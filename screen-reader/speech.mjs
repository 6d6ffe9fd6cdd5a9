// The speech endpoint's work: where in an audio cut speech is (Silero VAD), and, when
// WHISPER_URL names a whisper.cpp server, what was said there.
import {
  decodeSamples,
  frameProbabilities,
  loadVad,
  SAMPLE_RATE,
  speechSpans,
  VAD_ENGINE,
} from "./speech-spans.mjs";
import { transcribe } from "./whisper.mjs";

/**
 * The speech parts this machine can run: `{ vad, engine, whisperUrl, notice }`, `vad` null and
 * `notice` saying why when the model does not load (SPEECH_SPANS=off turns them off).
 */
export async function loadSpeech(env) {
  const whisperUrl = env.WHISPER_URL ? new URL(env.WHISPER_URL).href : null;
  if (env.SPEECH_SPANS === "off")
    return { vad: null, engine: null, whisperUrl, notice: "SPEECH_SPANS=off" };
  try {
    return { vad: await loadVad(), engine: VAD_ENGINE, whisperUrl, notice: null };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { vad: null, engine: null, whisperUrl, notice: why.replace(/\s+/g, " ").slice(0, 200) };
  }
}

/**
 * Speech in one cut: `{ engine, seconds, spans, transcript }`, spans as [start, end] seconds
 * from the cut's start; `transcript` null without WHISPER_URL or where no speech was found,
 * else whisper.cpp's segments or, when it failed, `{ error }`. `inTurn` runs the model work
 * one cut at a time.
 */
export async function hearSpeech(speech, ffmpegPath, cut, inTurn) {
  const samples = await decodeSamples(ffmpegPath, cut);
  const spans = await inTurn(async () =>
    speechSpans(await frameProbabilities(speech.vad, samples), samples.length),
  );
  const heard = {
    engine: speech.engine,
    seconds: Math.round((samples.length / SAMPLE_RATE) * 1000) / 1000,
    spans,
    transcript: null,
  };
  if (speech.whisperUrl === null || spans.length === 0) return heard;
  try {
    heard.transcript = await transcribe(speech.whisperUrl, samples, SAMPLE_RATE);
  } catch (error) {
    heard.transcript = { error: error instanceof Error ? error.message : String(error) };
  }
  return heard;
}
