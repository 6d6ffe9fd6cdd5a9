import type { MediaAbilities } from "../../domain/media-abilities";
import type { SearchMatch } from "../search/matches";

/** What GET /healthz says the deployment understands of a video (`understanding`). */
export interface UnderstandingReport {
  engine: string;
  speech: boolean;
  pictures: boolean;
  on_screen_text: boolean;
  /** What it hears, in words. */
  hears: string;
  /** What it sees, in words. */
  sees: string;
  /** What it reads of the file beside what is heard and seen, in words. */
  reads: string;
  /** The kinds of text search can match here (`matches[].kind` of a search result). */
  search_kinds: SearchMatch["kind"][];
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function orList(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** The kinds of text search matches in a deployment with these abilities. */
export function searchKinds(abilities: MediaAbilities): SearchMatch["kind"][] {
  return [
    "transcript",
    ...(abilities.pictures ? (["scene"] as const) : []),
    ...(abilities.onScreenText ? (["ocr"] as const) : []),
    "metadata",
    "tags",
    "filename",
  ];
}

/** What a deployment hears, sees and reads, in words, from the abilities its adapters declare. */
export function describeAbilities(abilities: MediaAbilities): UnderstandingReport {
  const heard = [
    ...(abilities.speech ? ["recognised speech"] : []),
    "caption and subtitle tracks in the file",
    "captions uploaded for it",
  ];
  const seen = [
    ...(abilities.pictures ? ["described frames"] : []),
    ...(abilities.onScreenText ? ["text written on screen"] : []),
  ];
  const unseen = [
    ...(abilities.pictures ? [] : ["pictures are not looked at"]),
    ...(abilities.onScreenText ? [] : ["text written on screen is not read"]),
  ];
  let sees = list(seen);
  if (seen.length === 0) sees = `nothing: ${list(unseen)}`;
  else if (unseen.length > 0) sees = `${sees}; ${list(unseen)}`;
  return {
    engine: abilities.engine,
    speech: abilities.speech,
    pictures: abilities.pictures,
    on_screen_text: abilities.onScreenText,
    hears: abilities.speech
      ? list(heard)
      : `${list(heard)}; speech is not recognised, so a video without captions is heard as silent`,
    sees,
    reads: "container tags (title, description, keywords, …) and the filename",
    search_kinds: searchKinds(abilities),
  };
}

/**
 * One sentence naming what search read in this deployment and, by what it leaves out, what it
 * cannot find: the words of a video nobody captioned, what is shown, what is written on screen.
 */
export function searchedSentence(abilities: MediaAbilities): string {
  const read = [
    ...(abilities.speech ? ["recognised speech"] : []),
    "caption and subtitle tracks",
    "uploaded captions",
    ...(abilities.pictures ? ["described frames"] : []),
    ...(abilities.onScreenText ? ["text on screen"] : []),
    "container tags",
    "filenames",
  ];
  const notDone = [
    ...(abilities.speech ? [] : ["recognise speech"]),
    ...(abilities.pictures ? [] : ["look at pictures"]),
    ...(abilities.onScreenText ? [] : ["read text written on screen"]),
  ];
  const unfindable = [
    ...(abilities.speech ? [] : ["words said without captions"]),
    ...(abilities.pictures ? [] : ["what is shown"]),
    ...(abilities.onScreenText ? [] : ["words written on screen"]),
  ];
  const searched = `It searched ${list(read)}.`;
  if (notDone.length === 0) return searched;
  return `${searched} This deployment does not ${orList(notDone)}, so ${orList(unfindable)} cannot be found.`;
}
