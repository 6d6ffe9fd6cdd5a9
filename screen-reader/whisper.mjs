// Transcription by a whisper.cpp server (examples/server: POST /inference, multipart `file` as
// WAV, `response_format=verbose_json`), when WHISPER_URL names one. It answers errors with
// status 200 and `{"error": …}`, and the language as a full name ("english").

/** ISO 639-1 codes of the languages whisper.cpp names in full (whisper.cpp's g_lang table). */
const LANGUAGES = {
  english: "en",
  german: "de",
  french: "fr",
  spanish: "es",
  italian: "it",
  dutch: "nl",
  portuguese: "pt",
  polish: "pl",
  japanese: "ja",
  chinese: "zh",
};

/** 16-bit PCM WAV bytes of 16 kHz mono float samples: the input whisper.cpp's server reads. */
export function wavBytes(samples, sampleRate) {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++)
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i])) * 32767), i * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * The timed segments whisper.cpp heard in the samples, in seconds from their start, and the
 * language it heard (ISO 639-1, null when not one of LANGUAGES). Throws on any failure.
 */
export async function transcribe(baseUrl, samples, sampleRate, timeoutMs = 120_000) {
  const form = new FormData();
  form.set("file", new Blob([wavBytes(samples, sampleRate)], { type: "audio/wav" }), "cut.wav");
  form.set("response_format", "verbose_json");
  form.set("temperature", "0.0");
  form.set("language", "auto");
  const res = await fetch(new URL("inference", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`), {
    method: "POST",
    body: form,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = await res.json().catch(() => null);
  if (!res.ok || body === null || typeof body !== "object")
    throw new Error(`whisper.cpp answered ${res.status} without verbose JSON`);
  if (typeof body.error === "string") throw new Error(`whisper.cpp: ${body.error}`);
  if (!Array.isArray(body.segments)) throw new Error("whisper.cpp answered no segments");
  const segments = body.segments.flatMap((s) => {
    const text = String(s?.text ?? "").trim();
    const ok = Number.isFinite(s?.start) && Number.isFinite(s?.end) && s.end >= s.start;
    return ok && text !== "" ? [{ start: s.start, end: s.end, text }] : [];
  });
  const language = LANGUAGES[String(body.language ?? "").toLowerCase()] ?? null;
  return { language, segments };
}
