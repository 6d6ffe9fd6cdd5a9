import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from "mediabunny";
import captionsWebm from "../fixtures/media/captions.webm?inline";
import clip1080pMp4 from "../fixtures/media/clip-1080p.mp4?inline";
import { dataUrlBytes } from "./data-url";

/** What a long Matroska file repeats: one 2-second GOP of a fixture's video, and its audio. */
export interface Gop {
  video: {
    codecId: string;
    codecPrivate: Uint8Array | null;
    width: number;
    height: number;
    /** 50 packets (2 s at 25 fps) in decode order: bytes and presentation time in frames. */
    packets: { data: Uint8Array; frame: number }[];
  };
  audio: {
    codecId: string;
    codecPrivate: Uint8Array | null;
    sampleRate: number;
    channels: number;
    /** Samples a packet holds. */
    frameSamples: number;
    packets: Uint8Array[];
  };
}

/** Frames of the GOP: both fixtures are 25 fps with a key frame every 50 frames. */
export const GOP_FRAMES = 50;
export const FPS = 25;

const SAMPLES_PER_FRAME: Record<string, number> = { aac: 1024, opus: 960 };
const CODEC_IDS: Record<string, string> = {
  avc: "V_MPEG4/ISO/AVC",
  vp9: "V_VP9",
  aac: "A_AAC",
  opus: "A_OPUS",
};

const gops = new Map<string, Promise<Gop>>();

/**
 * The first GOP of clip-1080p.mp4 (H.264 1080p, AAC) for "mkv", of captions.webm (VP9
 * 160x90, Opus) for "webm", read once per process.
 */
export function fixtureGop(container: "mkv" | "webm"): Promise<Gop> {
  let gop = gops.get(container);
  if (gop === undefined) {
    gop = readGop(dataUrlBytes(container === "mkv" ? clip1080pMp4 : captionsWebm));
    gops.set(container, gop);
  }
  return gop;
}

async function readGop(bytes: Uint8Array): Promise<Gop> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  const video = await input.getPrimaryVideoTrack();
  const audio = await input.getPrimaryAudioTrack();
  if (!video || !audio) throw new Error("The fixture has lost a track.");
  const videoCodec = (await video.getCodec()) ?? "";
  const audioCodec = (await audio.getCodec()) ?? "";
  const videoConfig = await video.getDecoderConfig();
  const audioConfig = await audio.getDecoderConfig();
  const packets: Gop["video"]["packets"] = [];
  let zero: number | undefined;
  for await (const packet of new EncodedPacketSink(video).packets()) {
    if (packets.length === GOP_FRAMES) break;
    zero ??= packet.timestamp;
    packets.push({ data: packet.data, frame: Math.round((packet.timestamp - zero) * FPS) });
  }
  const shown = new Set(packets.map((packet) => packet.frame));
  if (shown.size !== GOP_FRAMES || [...shown].some((frame) => frame >= GOP_FRAMES)) {
    throw new Error(`The fixture's first ${GOP_FRAMES} packets are not one closed GOP.`);
  }
  const sounds: Uint8Array[] = [];
  for await (const packet of new EncodedPacketSink(audio).packets()) sounds.push(packet.data);
  const frameSamples = SAMPLES_PER_FRAME[audioCodec];
  const videoId = CODEC_IDS[videoCodec];
  const audioId = CODEC_IDS[audioCodec];
  if (!frameSamples || !videoId || !audioId) {
    throw new Error(`No Matroska codec ID for ${videoCodec} or ${audioCodec}.`);
  }
  const gop: Gop = {
    video: {
      codecId: videoId,
      codecPrivate: description(videoConfig?.description),
      width: await video.getCodedWidth(),
      height: await video.getCodedHeight(),
      packets,
    },
    audio: {
      codecId: audioId,
      codecPrivate: description(audioConfig?.description),
      sampleRate: await audio.getSampleRate(),
      channels: await audio.getNumberOfChannels(),
      frameSamples,
      packets: sounds,
    },
  };
  input.dispose();
  return gop;
}

/** A decoder configuration's description (avcC, AudioSpecificConfig, OpusHead) as CodecPrivate. */
function description(value: ArrayBufferLike | ArrayBufferView | undefined): Uint8Array | null {
  if (value === undefined) return null;
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice();
  }
  return new Uint8Array(value).slice();
}
