import type { Video } from "../types.js";
import { printJson, tableLines } from "./output.js";

/** What a person must see under a video's row: what was understood of it, and its warning. */
export function understoodNotes(video: Video): string[] {
  const understood = video.media?.understood;
  if (understood === undefined) return [];
  const notes = [`Understood: ${understood.summary}`];
  if (understood.warning !== undefined) notes.push(`Warning: ${understood.warning}`);
  return notes;
}

/**
 * Prints videos: under --json the bare JSON on stdout and each warning on stderr, named by
 * `label` (so a script's stdout stays parseable and a person still sees it); otherwise a row
 * per video, each followed by what was understood of it and its warning, indented.
 */
export function printVideos(
  videos: Video[],
  rows: (string | number | undefined)[][],
  json: boolean,
  label: (video: Video, index: number) => string = (video) => video.id,
): void {
  if (json) {
    printJson(videos);
    videos.forEach((video, index) => {
      const warning = video.media?.understood?.warning;
      if (warning !== undefined) process.stderr.write(`vas: ${label(video, index)}: ${warning}\n`);
    });
    return;
  }
  const lines = tableLines(rows);
  lines.forEach((line, index) => {
    process.stdout.write(`${line}\n`);
    const video = videos[index];
    for (const note of video ? understoodNotes(video) : []) process.stdout.write(`  ${note}\n`);
  });
}
