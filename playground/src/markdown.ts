import MarkdownIt from "markdown-it";

// `html: false` escapes any HTML inside the report, so what is rendered is Markdown's own
// markup only; markdown-it also refuses javascript:, vbscript: and data: links (validateLink).
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** A report's Markdown as HTML in which no tag of the source survives unescaped. */
export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
