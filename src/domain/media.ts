/**
 * Random access to a stored file by byte ranges: how every media reader sees a video, so
 * no reader ever holds the whole file in memory.
 */
export interface RangeSource {
  /** Total size in bytes. */
  readonly size: number;
  /** Bytes [start, end) of the file; `end` is clamped to the size. */
  read(start: number, end: number): Promise<Uint8Array>;
  /**
   * Bytes [start, end) as one read that arrives in pieces (each at most `STREAM_PIECE_BYTES`),
   * so a pass over a large stretch holds a piece, not the stretch. A source without it is read
   * whole, one `read` a stretch (`rangePieces`).
   */
  stream?(start: number, end: number): AsyncIterable<Uint8Array>;
}

/** One timed text cue, in seconds from the start of the video. */
export interface TextCue {
  start: number;
  end: number;
  text: string;
}

/** A timed text track of the container (mov_text/tx3g, WebVTT, SRT, ASS). */
export interface TextTrack {
  /** 0-based index among the file's text tracks. */
  index: number;
  /** The codec as found: `tx3g`, `wvtt`, `webvtt`, `srt`, `ass`, ... */
  codec: string;
  /** ISO 639 language code when the container names one. */
  language?: string;
  /** Track name/title when the container names one. */
  name?: string;
  /** Evidence source of its cues when the track is not the file's own (`captions-uploaded:en`). */
  source?: string;
  cues: TextCue[];
}

/** Embedded metadata of the container. */
export interface MediaTags {
  title?: string;
  description?: string;
  comment?: string;
  keywords: string[];
  artist?: string;
  date?: string;
  /** Other textual tags as found, keyed by their lowercase name. */
  other: Record<string, string>;
}

/** What probing a file measured. Durations and times are in seconds. */
export interface MediaProbe {
  /** The container family. */
  container: "mp4" | "mov" | "m4v" | "webm" | "mkv";
  duration: number;
  video: {
    codec: string;
    width: number;
    height: number;
    /** Rotation in degrees from the container's display matrix. */
    rotation: number;
    frameCount: number;
    fps: number;
  } | null;
  audio: { codec: string; channels: number; sampleRate: number } | null;
  /** Presentation times of key frames (sync samples), ascending. */
  keyframes: number[];
  textTracks: TextTrack[];
  tags: MediaTags;
  /** Embedded cover art (MP4 `covr`, Matroska attachment), when present. */
  coverArt: { contentType: string; bytes: Uint8Array } | null;
  /** For a Matroska file mediabunny cannot seek (no Cues): where its Clusters start. */
  clusterIndex?: ClusterIndex;
}

/**
 * Where each Cluster of a Matroska file without Cues starts and its timestamp: what the probe
 * finds on its one walk, so a cut can seek the file as if it had Cues.
 */
export interface ClusterIndex {
  /** The Matroska number of the video track, pointed at the Clusters holding its key frames. */
  videoTrack: number;
  /** The other measured tracks (audio), pointed at every Cluster. */
  otherTracks: number[];
  /** Where the Segment element and its data start. */
  segmentStart: number;
  segmentDataStart: number;
  /** The Segment's size; null when unknown (a live-written file). */
  segmentSize: number | null;
  /** Where the first Cluster starts: the Cues go just before it. */
  firstCluster: number;
  /** Cluster timestamps in Segment ticks, and their file offsets, in file order. */
  ticks: Float64Array<ArrayBufferLike>;
  offsets: Float64Array<ArrayBufferLike>;
  /** 1 where the Cluster holds a key frame of the video track. */
  keys: Uint8Array;
}
