// The trial's report: the questions the platform's docs leave open, answered from what the
// service recorded of each file, then each file's record; as JSON (trial.json) and Markdown.

/** Why each limitation code is there (docs/media-understanding.md, Limitations). */
const REASONS = {
  "no-timed-text": ["absence", "the file has no usable caption cues"],
  "no-container-metadata": ["absence", "no textual container tag"],
  "thumbnail-generated-poster": ["absence", "the thumbnail is the generated poster"],
  "no-audio-track": ["absence", "the probe found no audio track"],
  "no-video-track": ["absence", "the probe found no video track"],
  "no-speech-recognition": ["absence", "no speech was recognised in any audio window"],
  "no-visual-analysis": ["absence", "no frame was described"],
  "no-ocr": ["absence", "no frame was read for on-screen text"],
  "audio-extraction-failed": ["failure", "a window's audio could not be cut from the file"],
  "frame-extraction-failed": ["failure", "a frame could not be cut or extracted, for good"],
  "speech-recognition-failed": ["failure", "Whisper refused a window for good"],
  "vision-failed": ["failure", "the vision model refused a frame for good"],
  "speech-recognition-unavailable": [
    "failure",
    "a window still failed transiently after every retry",
  ],
  "vision-unavailable": ["failure", "a frames window still failed transiently after every retry"],
  "speech-output-malformed": ["failure", "Whisper's output failed validation in part"],
  "vision-output-malformed": ["failure", "the vision model's output failed validation in part"],
  "frame-too-large": [
    "memory",
    "a frame's smallest cut would not fit the memory cuts are made in (48 MB budget)",
  ],
  "quota-exceeded:workers-ai": [
    "quota",
    "Workers AI's daily free allocation of neurons is used up (3036)",
  ],
  "quota-exceeded:media-transformations": [
    "quota",
    "Media Transformations' usage limit was reached",
  ],
};

/** A limitation code with its kind (codec, quota, memory, failure, absence, other) and reason. */
export function reasonOf(code) {
  const known = REASONS[code];
  if (known) return { code, kind: known[0], reason: known[1] };
  const [head, param] = code.split(/:(.*)/s);
  if (head === "frame-extraction-refused")
    return {
      code,
      kind: "codec",
      reason: `Media Transformations refused frames cut from ${param} video`,
    };
  if (head === "speech-recognition-refused")
    return { code, kind: "codec", reason: `Whisper refused ${param} audio cuts` };
  if (head === "cut-unsupported")
    return { code, kind: "codec", reason: `the service cannot copy ${param} packets into a cut` };
  if (head === "quota-exceeded")
    return { code, kind: "quota", reason: `the ${param} quota ran out` };
  if (head === "model-error")
    return { code, kind: "failure", reason: "a model error no page documents, after 3 attempts" };
  return { code, kind: "other", reason: "see docs/media-understanding.md" };
}

const byName = (records, name) => records.find((r) => r.name === name);
const has = (record, code) => record.limitations.includes(code);
const unsettled = (record) =>
  !record ? "not run" : record.status !== "completed" ? `not answered: ${record.status}` : null;

/** Frames of `codec` (from trial file `name`): extracted and described, refused, or neither. */
function framesOf(records, name, codec) {
  const r = byName(records, name);
  const open = unsettled(r);
  if (open) return open;
  if (r.seen_seconds > 0) return `yes: ${r.seen_seconds} s of ${r.duration} s seen`;
  const quota = r.limitations.filter((l) => l.startsWith("quota-exceeded"));
  if (quota.length > 0) return `not known: a quota ran out first (${quota.join(", ")})`;
  if (has(r, `frame-extraction-refused:${codec}`))
    return `no: refused (frame-extraction-refused:${codec})`;
  return `no frame described: ${r.limitations.join(", ") || "no limitation named"}`;
}

/** Whether Whisper heard cuts of `codec`, from the trial files with that audio codec. */
function whisperOn(records, codec) {
  const rs = records.filter((r) => r.codecs.audio === codec && r.status === "completed");
  if (rs.length === 0) return "not answered: no file with this audio completed";
  const heard = rs.filter((r) => r.heard_from.some((s) => s.startsWith("whisper")));
  if (heard.length > 0) return `yes: heard in ${heard.map((r) => r.name).join(", ")}`;
  if (rs.some((r) => has(r, `speech-recognition-refused:${codec}`)))
    return `no: refused (speech-recognition-refused:${codec})`;
  return `nothing heard: ${[...new Set(rs.flatMap((r) => r.limitations))].join(", ")}`;
}

function germanHeard(records) {
  const r = byName(records, "german-h264");
  const open = unsettled(r);
  if (open) return open;
  const whisper = r.heard_from.filter((s) => s.startsWith("whisper"));
  const found = r.search.found ? `"${r.search.word}" found` : `"${r.search.word}" not found`;
  if (whisper.includes("whisper:de")) return `yes: heard as whisper:de; ${found}`;
  if (whisper.length === 0) return `not heard: ${r.limitations.join(", ")}`;
  return `heard in a language not known (${whisper.join(", ")}: Whisper was not told one and showed no detection); ${found}`;
}

function longFile(records) {
  const r = byName(records, "long");
  const open = unsettled(r);
  if (open) return open;
  return `indexed in ${r.seconds_to_indexed} s; heard ${r.heard_seconds} s, seen ${r.seen_seconds} s of ${r.duration} s`;
}

function quotas(records) {
  const hit = [
    ...new Set(records.flatMap((r) => r.limitations.filter((l) => l.startsWith("quota-exceeded")))),
  ];
  if (hit.length > 0) return `reached: ${hit.join(", ")}`;
  const frames = records.reduce(
    (n, r) => n + (r.model_calls?.planned.media_transformations ?? 0),
    0,
  );
  return `not reached in this trial (about ${frames} frame extractions planned); past it, processing names quota-exceeded:<service>`;
}

/** The open questions (docs/deploy.md, "The trial") and their answers from the records. */
export function answers(records) {
  return [
    [
      "hevc_frames",
      "Does Media Transformations extract frames from HEVC cuts (phones)?",
      framesOf(records, "phone-hevc", "hevc"),
    ],
    ["vp9_frames", "… from VP9 cuts (browsers' WebM)?", framesOf(records, "browser-webm", "vp9")],
    ["av1_frames", "… from AV1 cuts?", framesOf(records, "av1", "av1")],
    [
      "whisper_aac",
      "Does Whisper take the AAC (M4A) audio cuts as sent?",
      whisperOn(records, "aac"),
    ],
    [
      "whisper_opus",
      "Does Whisper take the Opus (WebM) audio cuts as sent?",
      whisperOn(records, "opus"),
    ],
    ["german_speech", "Is German speech without captions heard as German?", germanHeard(records)],
    ["long_file", "How does a 15-minute file fare?", longFile(records)],
    [
      "quotas",
      "Was a free allocation (Workers AI, Media Transformations) reached?",
      quotas(records),
    ],
  ].map(([id, question, answer]) => ({ id, question, answer }));
}

/** Each file's limitations grouped by kind, each with its reason. */
function grouped(limitations) {
  const groups = {};
  for (const code of limitations) {
    const r = reasonOf(code);
    groups[r.kind] = [...(groups[r.kind] ?? []), { code, reason: r.reason }];
  }
  return groups;
}

const cell = (value) =>
  String(value ?? "–")
    .replace(/\|/g, "\\|")
    .replace(/\n/g, " ");
const calls = (counts) =>
  counts
    ? Object.entries(counts)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ") || "none"
    : "not exposed";

/** The whole report: `json` (an object) and `markdown` (a string). */
export function buildReport(meta, records) {
  const files = records.map((r) => ({ ...r, limitations_by_reason: grouped(r.limitations ?? []) }));
  const json = { ...meta, questions: answers(records), files };
  const md = [
    `# Trial of ${meta.base_url}`,
    "",
    `${meta.started_at}, ${meta.health ? `\`${JSON.stringify(meta.health)}\`` : "health unknown"}. Made by \`npm run trial\` (docs/deploy.md, "The trial").`,
    "",
    "## Answers",
    "",
    "| question | answer |",
    "| --- | --- |",
    ...json.questions.map((q) => `| ${cell(q.question)} | ${cell(q.answer)} |`),
    "",
    "## Files",
    "",
    "| file | codecs | status | to indexed | heard | seen | spoken word | model calls planned | counted |",
    "| --- | --- | --- | ---: | --- | --- | --- | --- | --- |",
    ...files.map((r) =>
      [
        "",
        `${r.name} (${r.what})`,
        `${r.codecs.container}: ${r.codecs.video} + ${r.codecs.audio}`,
        r.status,
        r.seconds_to_indexed === null || r.seconds_to_indexed === undefined
          ? "–"
          : `${r.seconds_to_indexed} s`,
        `${r.heard_seconds ?? 0} s of ${r.duration ?? "?"} s${r.heard_from?.length ? ` (${r.heard_from.join(", ")})` : ""}`,
        `${r.seen_seconds ?? 0} s`,
        `"${r.search?.word}" ${r.search?.found ? `found at ${r.search.at} s (${r.search.source})` : "not found"}`,
        r.model_calls ? calls(r.model_calls.planned) : "–",
        r.model_calls ? calls(r.model_calls.counted_by_simulator) : "–",
        "",
      ]
        .map(cell)
        .join(" | ")
        .trim(),
    ),
    "",
    "## Limitations by reason",
    "",
    "| file | kind | code | reason |",
    "| --- | --- | --- | --- |",
    ...files.flatMap((r) =>
      Object.entries(r.limitations_by_reason).flatMap(([kind, list]) =>
        list.map((l) => `| ${cell(r.name)} | ${kind} | \`${cell(l.code)}\` | ${cell(l.reason)} |`),
      ),
    ),
    "",
    "## What this cannot know",
    "",
    ...meta.cannot_know.map((line) => `- ${line}`),
    "",
  ].join("\n");
  return { json, markdown: md };
}
