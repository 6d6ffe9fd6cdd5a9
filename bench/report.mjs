// docs/benchmarks.md holds one section per suite, `## <suite name>`, each the suite's latest
// result with the command and machine that produced it. A run replaces the sections of the
// suites it ran and keeps the others, in the order the suites are listed.

/** The text before the first section, and each section's text by its suite name. */
export function parseReport(markdown) {
  const sections = new Map();
  let preamble = "";
  let name = null;
  let lines = [];
  const close = () => {
    if (name === null) preamble = lines.join("\n");
    else sections.set(name, lines.join("\n"));
  };
  for (const line of markdown.split("\n")) {
    if (line.startsWith("## ")) {
      close();
      name = line.slice(3).trim();
      lines = [line];
    } else {
      lines.push(line);
    }
  }
  close();
  return { preamble, sections };
}

/** One suite's section: its latest result under the command and machine that made it. */
export function suiteSection(name, result, { measuredAt, command, machine }) {
  return `## ${name}\n\nMeasured ${measuredAt} by \`${command}\` on ${machine}.\n\n${result.trim()}\n`;
}

/**
 * The report with `updates` (suite name → section) in place of those suites' sections;
 * sections are ordered as `order` lists the suites, any others (a suite since removed) last.
 */
export function replaceSections(markdown, updates, order) {
  const { preamble, sections } = parseReport(markdown);
  for (const [name, section] of updates) sections.set(name, section);
  const names = [
    ...order.filter((name) => sections.has(name)),
    ...[...sections.keys()].filter((name) => !order.includes(name)),
  ];
  const body = names.map((name) => `${sections.get(name).trim()}\n`).join("\n");
  return `${preamble.trim()}\n\n${body}`;
}
