// Types of wrangler-output.mjs for the node tests.
/** A line without its colour codes. */
export function plain(line: string): string;
/** A stateful filter over wrangler's lines: returns whether a line is shown. */
export function wranglerOutputFilter(): (line: string) => boolean;
