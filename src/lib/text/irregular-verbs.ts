import { stemEnglish } from "./text-features";

// Past forms of common English verbs that no suffix rule reaches ("wore" is "wear"), so that
// "the workers wore hard hats" matches "Do the workers wear hard hats?". Forms that are also
// common nouns or other words (saw, left, found, led, felt, lay, rose) are left out.
const IRREGULAR = new Map<string, string>(
  (
    "wore:wear worn:wear held:hold kept:keep took:take taken:take gave:give given:give " +
    "made:make went:go gone:go spoke:speak spoken:speak wrote:write written:write drove:drive " +
    "driven:drive told:tell said:say came:come began:begin begun:begin broke:break " +
    "broken:break chose:choose chosen:choose ate:eat eaten:eat forgot:forget " +
    "forgotten:forget rode:ride ridden:ride shook:shake shaken:shake stole:steal stolen:steal " +
    "tore:tear torn:tear threw:throw thrown:throw woke:wake woken:wake stood:stand sat:sit " +
    "hung:hang slept:sleep understood:understand paid:pay stuck:stick brought:bring " +
    "bought:buy caught:catch taught:teach thought:think built:build sent:send spent:spend " +
    "lost:lose sold:sell met:meet ran:run"
  )
    .split(" ")
    .map((pair) => pair.split(":") as [string, string]),
);

/** Stems already worked out: search stems a few hundred texts per query from one vocabulary. */
const STEMS = new Map<string, string>();
/** Bound of the memo; past it the memo starts again empty, so memory stays small. */
const MAX_STEMS = 50_000;

/** The stem used to match words: irregular past forms first, then the light stemmer. */
export function matchStem(token: string): string {
  let stem = STEMS.get(token);
  if (stem === undefined) {
    stem = IRREGULAR.get(token) ?? stemEnglish(token);
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    STEMS.set(token, stem);
  }
  return stem;
}

/** Whether a token is one of the irregular past forms above ("wore", "told", "ran"). */
export function isIrregularPast(token: string): boolean {
  return IRREGULAR.has(token);
}
