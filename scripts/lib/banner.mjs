// What `npm run dev` and `npm start` say runs: the adapters behind the ports and what the
// media engine hears, sees and reads, as the started service reports them on GET /healthz
// (never a string of its own that could drift from what runs), over simulators which platform
// services are simulated and with which settings, and the pages to open in a browser.

/** Each simulated service's name on /healthz, in words. */
const SERVICES = {
  ai: "Workers AI (speech, vision, answers, embeddings)",
  media: "Media Transformations",
  vectorize: "Vectorize",
  r2: "R2's S3 API",
};

/** The simulator settings and their defaults (README, configuration). */
export const SIMULATOR_DEFAULTS = {
  SIMULATE_VISION: "refuse",
  SIMULATE_BROKEN: "none",
  SIMULATE_ERRORS: "none",
  SIMULATE_FAULT_RATE: "0",
  SIMULATE_MODEL_LATENCY_MS: "0",
  SIMULATE_VECTORIZE_DELAY_MS: "1000",
  SIMULATE_ANSWERS: "honest",
  SIMULATE_ANSWERS_SEED: "1",
  SIMULATE_ANSWERS_RATES: "1",
};

/**
 * The banner's lines about adapters, from the service's own `/healthz` answer (`adapters`,
 * `simulated`) and the settings it was started with.
 */
export function adaptersBanner(health, settings = {}) {
  const simulated = Array.isArray(health?.simulated) ? health.simulated : [];
  if (health?.adapters !== "production")
    return [
      "  Adapters:   local (the local media and answer engines; no platform service is called)",
    ];
  if (simulated.length === 0) return ["  Adapters:   production (the platform's own services)"];
  const lines = [
    "  Adapters:   production, over local simulators: nothing here is a real model or service",
    `  Simulated:  ${simulated.map((name) => `${SERVICES[name] ?? name} (${name})`).join(", ")}`,
    "  Settings:   " +
      Object.entries(SIMULATOR_DEFAULTS)
        .map(([name, fallback]) => {
          const value = settings[name];
          return value === undefined || value === ""
            ? `${name}=${fallback} (default)`
            : `${name}=${value}`;
        })
        .join(", "),
  ];
  if (simulated.includes("ai"))
    lines.push(
      "  Note:       the simulated Whisper hears a source's captions (or what a committed file",
      "              the simulators know says) only where its audio has sound; the simulated",
      "              vision model sees no pixels, only known files' pictures (docs/simulators.md)",
    );
  return lines;
}

/** Where a banner line's text starts, and how wide its lines may get. */
const INDENT = "              ";
const WIDTH = 92;

/** `label` then `text`, wrapped at word boundaries under the text's start. */
function wrapped(label, text) {
  const lines = [];
  let line = `  ${label}`.padEnd(INDENT.length);
  for (const word of text.split(" ")) {
    if (line.trim() !== label && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = INDENT + word;
    } else line = line.endsWith(" ") ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/**
 * The banner's lines about what the media engine hears, sees and reads, from the service's own
 * `/healthz` answer (`understanding`); none when it says nothing of it.
 */
export function understandingBanner(health) {
  const understanding = health?.understanding;
  if (typeof understanding?.hears !== "string") return [];
  const lines = [
    ...wrapped("Hears:", understanding.hears),
    ...wrapped("Sees:", understanding.sees),
    ...wrapped("Reads:", understanding.reads),
  ];
  if (understanding.speech === false)
    lines.push(
      ...wrapped(
        "Captions:",
        "send a .vtt or .srt of what is said and the video is heard and searchable by it: vas captions put vid_… en talk.vtt",
      ),
    );
  return lines;
}

/** The pages to open in a browser: the API reference and the playground. */
export function pagesBanner(baseUrl) {
  return [
    `  API docs:   ${baseUrl}/docs`,
    `  Playground: ${baseUrl}/playground (paste the key: upload, watch, search, run)`,
  ];
}

/** Asks the started service what runs (GET /healthz); null when it does not answer. */
export async function healthOf(baseUrl) {
  try {
    const res = await fetch(`${baseUrl}/healthz`);
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}
