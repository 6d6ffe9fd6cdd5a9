import scanModule from "./scan.wasm";

const PAGE = 65_536;

type Accumulate = (
  cols: number,
  n: number,
  stride: number,
  weights: number,
  acc: number,
  rows: number,
) => void;

/**
 * The SIMD inner loop of the local index (scan.wat): the weighted sum of a block's int8
 * columns, accumulated in f32 lanes (a score is within ~1e-6 of the exact cosine of the
 * stored codes). Columns are copied into the module's memory per call, which grows to the
 * largest block it has seen (384 columns of 16,384 rows: ~6.4 MB).
 */
export class ScanKernel {
  private readonly memory: WebAssembly.Memory;
  private readonly run: Accumulate;

  constructor() {
    const { memory, accumulate } = new WebAssembly.Instance(scanModule).exports;
    if (!(memory instanceof WebAssembly.Memory) || typeof accumulate !== "function") {
      throw new Error("scan.wasm does not export memory and accumulate");
    }
    this.memory = memory;
    this.run = accumulate as Accumulate;
  }

  /** Bytes of the module's memory. */
  get bytes(): number {
    return this.memory.buffer.byteLength;
  }

  /**
   * acc[r] = Σ weights[c] · columns[c][r] for r < size. The answer is a view of the module's
   * memory, valid until the next call.
   */
  accumulate(columns: Int8Array[], weights: number[], size: number): Float32Array {
    const n = columns.length;
    const stride = Math.ceil(size / 16) * 16;
    const weightsAt = 0;
    const accAt = Math.ceil((n * 4) / 16) * 16;
    const colsAt = accAt + stride * 4;
    const needed = colsAt + n * stride;
    if (needed > this.memory.buffer.byteLength) {
      this.memory.grow(Math.ceil((needed - this.memory.buffer.byteLength) / PAGE));
    }
    const { buffer } = this.memory;
    new Float32Array(buffer, weightsAt, n).set(weights);
    const codes = new Int8Array(buffer, colsAt, n * stride);
    for (const [c, column] of columns.entries()) {
      const rows = column.length >= size ? column.subarray(0, size) : column;
      codes.set(rows, c * stride);
      if (rows.length < size) codes.fill(0, c * stride + rows.length, c * stride + size);
    }
    this.run(colsAt, n, stride, weightsAt, accAt, stride);
    return new Float32Array(buffer, accAt, size);
  }
}
