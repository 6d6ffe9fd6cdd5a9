import { thumbnailFrameKey } from "../../lib/object-keys";
import type { FrameImage } from "../../media-understanding/assemble";
import type { FrameStore } from "./workers-ai";

/** Keeps the thumbnail frame in the media bucket, with its time in the object's metadata. */
export class R2FrameStore implements FrameStore {
  constructor(private readonly bucket: R2Bucket) {}

  async put(videoId: string, frame: FrameImage): Promise<void> {
    await this.bucket.put(thumbnailFrameKey(videoId), frame.bytes, {
      httpMetadata: { contentType: frame.contentType },
      customMetadata: { time: String(frame.time) },
    });
  }

  async get(videoId: string): Promise<FrameImage | null> {
    const object = await this.bucket.get(thumbnailFrameKey(videoId));
    if (!object) return null;
    return {
      time: Number(object.customMetadata?.time ?? 0),
      contentType: object.httpMetadata?.contentType ?? "image/jpeg",
      bytes: new Uint8Array(await object.arrayBuffer()),
    };
  }
}
