import type { Rule } from "../../domain/rulebooks";

/**
 * A workflow run's section headings: each verdict (`rule/video`) headed by its rule's title,
 * its severity when it has one, and the name of the video it is about, never by ids. The name
 * comes from the run's sources (`names`, by video id), not from the answer's items, whose ids
 * each engine numbers its own way.
 */
export function workflowHeadings(
  rules: readonly Rule[],
  answerKeys: readonly string[],
  names: ReadonlyMap<string, string>,
): Record<string, string> {
  const titles = new Map(
    rules.map((rule) => [rule.id, rule.severity ? `${rule.title} (${rule.severity})` : rule.title]),
  );
  const headings: Record<string, string> = {};
  for (const key of answerKeys) {
    const cut = key.lastIndexOf("/");
    if (cut < 0) continue;
    const title = titles.get(key.slice(0, cut));
    if (title === undefined) continue;
    const video = names.get(key.slice(cut + 1));
    headings[key] = video ? `${title} — ${video}` : title;
  }
  return headings;
}
