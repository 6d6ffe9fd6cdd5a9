/**
 * The quality an Accept header gives a media type (0 when no range matches) and how
 * specifically it named the type: 2 exactly, 1 as `text/*`, 0 through `*\/*`.
 */
function quality(accept: string, type: string): { q: number; specificity: number } {
  let best = 0;
  let bestSpecificity = -1;
  for (const range of accept.split(",")) {
    const [name = "", ...params] = range.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = q === undefined ? 1 : Number(q.slice(2));
    const [major] = type.split("/");
    const specificity = name === type ? 2 : name === `${major}/*` ? 1 : name === "*/*" ? 0 : -1;
    if (specificity > bestSpecificity && Number.isFinite(value)) {
      best = value;
      bestSpecificity = specificity;
    }
  }
  return { q: best, specificity: bestSpecificity };
}

/**
 * Whether a request asks for a report's Markdown itself: `text/markdown` is acceptable and
 * ranks above JSON. Without an Accept header, or with `*\/*` alone, the report resource wins.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const markdown = quality(accept, "text/markdown");
  const json = quality(accept, "application/json");
  if (markdown.q === 0) return false;
  // At equal quality the type the client named outranks one a wildcard let in.
  return markdown.q > json.q || (markdown.q === json.q && markdown.specificity > json.specificity);
}
