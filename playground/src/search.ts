import type { Api } from "./api";
import { byId, clock, h, show } from "./dom";

/** A search result (the spec's Search result section), the fields this page shows. */
interface SearchResult {
  id: string;
  video_id: string;
  title: string;
  score: number;
  time_position: number;
  /** The text that matched, one shown text per line. */
  text?: string;
  /** Each text that matched, with its kind (`filename`: found by its name, no evidence). */
  matches?: { kind: string }[];
  image?: string;
  video_url?: string;
}

/** Plays the result's video from its moment (the signed URL carries `#t=`). */
function play(result: SearchResult): void {
  const player = byId("player");
  if (result.video_url === undefined) {
    show(player, h("p", { text: "This result has no playable video." }));
    return;
  }
  const video = h("video", { src: result.video_url, controls: true, muted: true });
  video.addEventListener("loadedmetadata", () => {
    video.currentTime = result.time_position;
  });
  show(
    player,
    video,
    h("p", { class: "caption", text: `${result.title} from ${clock(result.time_position)}` }),
  );
}

function tile(result: SearchResult): HTMLElement {
  const button = h(
    "button",
    { type: "button", class: "result", "data-time": result.time_position },
    result.image ? h("img", { src: result.image, alt: "" }) : h("div", { class: "no-thumb" }),
    h("span", { class: "name", text: result.title }),
    h("span", { class: "score", text: `score ${result.score.toFixed(2)}` }),
    h("span", { class: "time", text: `at ${clock(result.time_position)}` }),
    ...(byFilename(result) ? [h("span", { class: "kind", text: "found by its filename" })] : []),
    h("span", { class: "said", text: result.text ?? "" }),
  );
  button.addEventListener("click", () => play(result));
  return h("li", {}, button);
}

/** A result found by its video's filename alone: it names the file, it is no evidence. */
function byFilename(result: SearchResult): boolean {
  const matches = result.matches ?? [];
  return matches.length > 0 && matches.every((match) => match.kind === "filename");
}

/** Why a search answered nothing (present on an empty first page). */
interface SearchExplanation {
  detail: string;
}

/** What a search covered (present on the first page). */
interface SearchScope {
  videos_not_searched: number;
  videos_without_understanding: number;
  detail: string;
}

/**
 * Searches the workspace and shows each moment as a thumbnail with its score, time and the
 * text that matched; an empty answer shows the service's reason, and one with results what it
 * left out (videos not searched, or searched only by filename, title and tags).
 */
export async function search(api: Api, query: string): Promise<void> {
  const answer = await api.json<{
    data: SearchResult[];
    scope?: SearchScope;
    explanation?: SearchExplanation;
  }>("POST", "/search", { query, limit: 12 });
  const { scope } = answer;
  const notes: HTMLElement[] = [];
  if (answer.data.length === 0)
    notes.push(
      h("li", {
        class: "explanation",
        text: answer.explanation?.detail ?? "No moment matches.",
      }),
    );
  else if (scope && scope.videos_not_searched + scope.videos_without_understanding > 0)
    notes.push(h("li", { class: "scope", text: scope.detail }));
  show(byId("results"), ...notes, ...answer.data.map(tile));
}
