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
    h("span", { class: "said", text: result.text ?? "" }),
  );
  button.addEventListener("click", () => play(result));
  return h("li", {}, button);
}

/** Why a search answered nothing (present on an empty first page). */
interface SearchExplanation {
  detail: string;
}

/**
 * Searches the workspace and shows each moment as a thumbnail with its score, time and the
 * text that matched; an empty answer shows the service's reason.
 */
export async function search(api: Api, query: string): Promise<void> {
  const answer = await api.json<{ data: SearchResult[]; explanation?: SearchExplanation }>(
    "POST",
    "/search",
    { query, limit: 12 },
  );
  const empty =
    answer.data.length === 0
      ? [
          h("li", {
            class: "explanation",
            text: answer.explanation?.detail ?? "No moment matches.",
          }),
        ]
      : [];
  show(byId("results"), ...empty, ...answer.data.map(tile));
}
