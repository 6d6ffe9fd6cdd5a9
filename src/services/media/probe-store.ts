import type { ClusterIndex, MediaProbe } from "../../domain/media";
import type { InvocationScope } from "../../lib/invocation-scope";
import { clusterIndexKey, coverArtKey, probeKey } from "../../lib/object-keys";
import { decodeClusterIndex, encodeClusterIndex } from "../../media/cluster-index";

/**
 * Keeps a video's probe in the media bucket, so each invocation that understands a window of
 * the video reads it instead of probing the file again (cover art beside it, as bytes).
 */
export async function storeProbe(
  bucket: R2Bucket,
  videoId: string,
  probe: MediaProbe,
): Promise<void> {
  const { coverArt, clusterIndex, ...rest } = probe;
  if (clusterIndex) await bucket.put(clusterIndexKey(videoId), encodeClusterIndex(clusterIndex));
  if (coverArt) {
    await bucket.put(coverArtKey(videoId), coverArt.bytes, {
      httpMetadata: { contentType: coverArt.contentType },
    });
  }
  await bucket.put(probeKey(videoId), JSON.stringify({ ...rest, hasCoverArt: coverArt !== null }), {
    httpMetadata: { contentType: "application/json" },
  });
}

/**
 * The Cluster positions `storeProbe` kept for a Matroska file without Cues; null for any
 * other file. Read by the cutter when it opens the source, so the probe stays small.
 */
export async function loadClusterIndex(
  bucket: R2Bucket,
  videoId: string,
): Promise<ClusterIndex | null> {
  const stored = await bucket.get(clusterIndexKey(videoId));
  return stored && decodeClusterIndex(await stored.arrayBuffer());
}

/** The probe `storeProbe` kept; null when it is gone (the video must then be probed again). */
export async function loadProbe(bucket: R2Bucket, videoId: string): Promise<MediaProbe | null> {
  const stored = await bucket.get(probeKey(videoId));
  if (!stored) return null;
  const { hasCoverArt, ...rest } = (await stored.json()) as Omit<MediaProbe, "coverArt"> & {
    hasCoverArt: boolean;
  };
  let coverArt: MediaProbe["coverArt"] = null;
  if (hasCoverArt) {
    const art = await bucket.get(coverArtKey(videoId));
    if (!art) return null;
    coverArt = {
      contentType: art.httpMetadata?.contentType ?? "application/octet-stream",
      bytes: new Uint8Array(await art.arrayBuffer()),
    };
  }
  return { ...rest, coverArt };
}

/**
 * The probe of `videoId`, read once per scope: the windows of one video in one batch share a
 * single read. What the scope holds is a promise made in this invocation, let go with it.
 */
export function loadProbeIn(
  scope: InvocationScope | undefined,
  bucket: R2Bucket,
  videoId: string,
): Promise<MediaProbe | null> {
  if (!scope) return loadProbe(bucket, videoId);
  // The key is the probe's own object key, so nothing else the scope holds can share it.
  const name = `probe:${probeKey(videoId)}`;
  const open = () => ({
    // A failed read (storage down) is let go, so the batch's next window reads again.
    loaded: loadProbe(bucket, videoId).catch((error: unknown) => {
      scope.forget(name);
      throw error;
    }),
    dispose: () => {},
  });
  return scope.getOrOpen(name, open).loaded;
}
