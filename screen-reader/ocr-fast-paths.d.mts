// Types of ocr-fast-paths.mjs for the node tests.
interface Image {
  data: Uint8Array;
  width: number;
  height: number;
}
/** Replaces ModelBase's `imageToInput` and Recognition's `decodeText` in @gutenye/ocr-common. */
export function ocrFastPaths(): Promise<void>;
/** The image's RGBA bytes as planes of B, G and R, each `(value / 255 - mean) / std`. */
export function imageToInput(
  image: Image,
  options: { mean?: number[]; std?: number[] },
): { data: Float32Array; width: number; height: number };
/** Each line of a recognition output [lines, steps, classes]: its text and mean score. */
export function decodeText(
  output: { dims: readonly number[]; data: Float32Array },
  dictionary: string[],
): { text: string; mean: number }[];
