// Reads how far into an AAC access unit (raw_data_block, ISO/IEC 14496-3 §4.4.2) its first
// channel codes any spectrum: the section data names a Huffman codebook per scale-factor band,
// and codebook 0 (ZERO_HCB) means the band is all zeros. Nothing is decoded: parsing stops
// after the first channel's section data, before any Huffman-coded value.

const SCE = 0;
const CPE = 1;
const LFE = 3;
const DSE = 4;
const FIL = 6;
const END = 7;
const EIGHT_SHORT_SEQUENCE = 2;
const ZERO_HCB = 0;

class Bits {
  private bit = 0;
  constructor(private readonly bytes: Uint8Array) {}
  read(n: number): number {
    let value = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new RangeError("access unit ends early");
      value = (value << 1) | ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return value;
  }
  align(): void {
    this.bit = (this.bit + 7) & ~7;
  }
  skipBytes(n: number): void {
    this.bit += n * 8;
  }
}

/** ics_info: the window groups and how many scale-factor bands are coded. */
function icsInfo(bits: Bits): { groups: number; maxSfb: number; short: boolean } | null {
  bits.read(1); // ics_reserved_bit
  const sequence = bits.read(2);
  bits.read(1); // window_shape
  if (sequence === EIGHT_SHORT_SEQUENCE) {
    const maxSfb = bits.read(4);
    const grouping = bits.read(7);
    let groups = 1;
    for (let i = 6; i >= 0; i--) if (((grouping >> i) & 1) === 0) groups++;
    return { groups, maxSfb, short: true };
  }
  const maxSfb = bits.read(6);
  // Prediction belongs to AAC Main, not LC: such a stream is not read.
  if (bits.read(1) === 1) return null;
  return { groups: 1, maxSfb, short: false };
}

/** Whether any band of the section data has a codebook other than ZERO_HCB. */
function codesSpectrum(bits: Bits, info: { groups: number; maxSfb: number; short: boolean }) {
  const width = info.short ? 3 : 5;
  const escapeValue = (1 << width) - 1;
  let coded = false;
  for (let g = 0; g < info.groups; g++) {
    let band = 0;
    while (band < info.maxSfb) {
      const codebook = bits.read(4);
      let length = 0;
      let step = escapeValue;
      while (step === escapeValue) {
        step = bits.read(width);
        length += step;
      }
      if (length === 0 && step === 0) return null;
      if (codebook !== ZERO_HCB) coded = true;
      band += length;
    }
  }
  return coded;
}

/**
 * Whether an AAC access unit codes any sound in its first channel: false for a silent frame
 * (no band coded), true otherwise, null when the unit cannot be read this far (AAC Main
 * prediction, a program config element, a broken unit).
 */
export function aacFrameSounds(unit: Uint8Array): boolean | null {
  const bits = new Bits(unit);
  try {
    for (;;) {
      const element = bits.read(3);
      if (element === END) return false;
      if (element === SCE || element === LFE || element === CPE) {
        bits.read(4); // element_instance_tag
        let info: ReturnType<typeof icsInfo>;
        if (element === CPE && bits.read(1) === 1) {
          info = icsInfo(bits);
          if (info === null) return null;
          const msMask = bits.read(2);
          if (msMask === 1) for (let i = 0; i < info.groups * info.maxSfb; i++) bits.read(1);
          bits.read(8); // global_gain
        } else {
          bits.read(8); // global_gain
          info = icsInfo(bits);
          if (info === null) return null;
        }
        return codesSpectrum(bits, info);
      }
      if (element === FIL) {
        let count = bits.read(4);
        if (count === 15) count += bits.read(8) - 1;
        bits.skipBytes(count);
      } else if (element === DSE) {
        bits.read(4);
        const aligned = bits.read(1) === 1;
        let count = bits.read(8);
        if (count === 255) count += bits.read(8);
        if (aligned) bits.align();
        bits.skipBytes(count);
      } else {
        return null;
      }
    }
  } catch {
    return null;
  }
}
