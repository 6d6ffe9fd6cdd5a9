import type { Api } from "./api";
import { byId, clock, h, show } from "./dom";

/** A search result (the spec's Search result section), the fields this page shows. */
interface SearchResult {
  id: string;
  video_id: string;
  title: string;
  score: number;
  time_position: number;
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
  );
  button.addEventListener("click", () => play(result));
  return h("li", {}, button);
}

/** Searches the workspace and shows each moment as a thumbnail with its score and time. */
export async function search(api: Api, query: string): Promise<void> {
  const answer = await api.json<{ data: SearchResult[] }>("POST", "/search", {
    query,
    limit: 12,
  });
  show(
    byId("results"),
    ...(answer.data.length === 0 ? [h("li", { text: "No moment matches." })] : []),
    ...answer.data.map(tile),
  );
}
