/**
 * Confidence (0-1, the mean of a line's character probabilities) under which a line the
 * screen reader read is not evidence: precision first, so a misread never becomes a finding.
 * Chosen on the bench's labelled frames (docs/benchmarks.md, "On-screen text").
 */
export const MIN_READ_CONFIDENCE = 0.9;

const MAX_LINE_CHARS = 200;

/**
 * The lines of on-screen text that become `ocr` evidence, by one rule for both engines:
 * whitespace folded, at least two letters or digits (a stray mark is not text), at most 200
 * characters, each line once.
 */
export function screenLines(lines: readonly string[]): string[] {
  const kept: string[] = [];
  for (const line of lines) {
    const text = line.replace(/\s+/g, " ").trim();
    if (text.length > MAX_LINE_CHARS) continue;
    if ((text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) < 2) continue;
    if (!kept.includes(text)) kept.push(text);
  }
  return kept;
}

/** The lines a reader read at or above MIN_READ_CONFIDENCE, by the rule above. */
export function confidentLines(lines: readonly { text: string; confidence: number }[]): string[] {
  return screenLines(lines.filter((l) => l.confidence >= MIN_READ_CONFIDENCE).map((l) => l.text));
}
