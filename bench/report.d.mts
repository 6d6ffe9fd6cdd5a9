// Types of report.mjs for the node tests.
export function parseReport(markdown: string): { preamble: string; sections: Map<string, string> };
export function suiteSection(
  name: string,
  result: string,
  run: { measuredAt: string; command: string; machine: string },
): string;
export function replaceSections(
  markdown: string,
  updates: ReadonlyMap<string, string>,
  order: readonly string[],
): string;
