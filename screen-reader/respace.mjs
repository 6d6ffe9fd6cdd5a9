// PP-OCRv4's recogniser (trained mostly on Chinese) drops the space between words set wide
// apart, as large signs, slide titles and small print often are ("COLDSTORAGE"). The same
// line squeezed to 70, 60 or 50 % of its width is often read with its spaces. So a line read
// with a long run of letters is read again squeezed, and of the readings that differ from the
// first in spaces alone the one with the most spaces is kept: the letters stay the first
// reading's, so no misread can enter this way.
import { createRequire } from "node:module";

const SQUEEZES = [0.7, 0.6, 0.5];
/** A run this long without a space is more likely words run together than one word. */
const LONG_RUN = /[^\s]{8,}/;

/**
 * Wraps @gutenye/ocr-common's recogniser (pinned in package.json: its module layout is
 * relied on here) so that `Ocr.detect` answers lines with their spaces.
 */
export async function respaceRecognition() {
  const common = import.meta.resolve("@gutenye/ocr-common");
  const { Recognition } = await import(new URL("./models/Recognition.js", common));
  const sharp = createRequire(import.meta.resolve("@gutenye/ocr-node"))("sharp");
  const read = Recognition.prototype.run;
  Recognition.prototype.run = async function runRespaced(lineImages, options) {
    const lines = await read.call(this, lineImages, options);
    const runTogether = lines.filter((line) => LONG_RUN.test(line.text));
    if (runTogether.length === 0) return lines;
    const boxes = new Set(runTogether.map((line) => JSON.stringify(line.box)));
    const again = lineImages.filter((image) => boxes.has(JSON.stringify(image.box)));
    for (const factor of SQUEEZES) {
      const squeezed = await Promise.all(again.map((image) => squeeze(sharp, image, factor)));
      const reread = await read.call(this, squeezed, options);
      for (const line of runTogether) {
        const other = reread.find((r) => JSON.stringify(r.box) === JSON.stringify(line.box));
        if (!other || other.text.replace(/\s/g, "") !== line.text.replace(/\s/g, "")) continue;
        if (spaces(other.text) > spaces(line.text)) line.text = other.text;
      }
    }
    return lines;
  };
}

const spaces = (text) => text.split(" ").length - 1;

async function squeeze(sharp, lineImage, factor) {
  const { image } = lineImage;
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 4 },
  })
    .resize({
      width: Math.max(8, Math.round(image.width * factor)),
      height: image.height,
      fit: "fill",
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const Raw = image.constructor;
  return { image: new Raw({ data, width: info.width, height: info.height }), box: lineImage.box };
}
