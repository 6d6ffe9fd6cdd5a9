/** The text codecs whose cues this service reads. */
export type SubtitleCodec = "srt" | "ass" | "ssa" | "webvtt";

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&nbsp;": " ",
  "&lrm;": "",
  "&rlm;": "",
};

/**
 * The plain text of one subtitle cue as a reader would see it: markup, override tags and
 * positioning removed, line breaks kept as `\n`.
 */
export function cueText(codec: SubtitleCodec, payload: string): string {
  switch (codec) {
    case "ass":
    case "ssa":
      return tidy(assText(payload));
    case "srt":
      // SRT in the wild carries HTML-ish styling and ASS-style position codes.
      return tidy(stripTags(payload.replace(/\{\\[^}]*\}/g, "")));
    case "webvtt":
      return tidy(decodeEntities(stripTags(payload)));
  }
}

/**
 * Matroska stores an ASS/SSA event as `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,
 * Effect,Text`; the Text field may itself contain commas, so everything after the 8th is text.
 */
function assText(event: string): string {
  let start = 0;
  for (let field = 0; field < 8; field++) {
    const comma = event.indexOf(",", start);
    if (comma === -1) return "";
    start = comma + 1;
  }
  return (
    event
      .slice(start)
      // In drawing mode ({\p1} to {\p0}) the "text" is vector commands, not words.
      .replace(/\{[^}]*\\p[1-9][^}]*\}[^{]*/g, "")
      .replace(/\{[^}]*\}/g, "")
      .replace(/\\[Nn]/g, "\n")
      .replace(/\\h/g, " ")
  );
}

function stripTags(text: string): string {
  return text.replace(/<[^>]*>/g, "");
}

function decodeEntities(text: string): string {
  return text.replace(/&(?:amp|lt|gt|nbsp|lrm|rlm);/g, (entity) => ENTITIES[entity] ?? entity);
}

function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n");
}
