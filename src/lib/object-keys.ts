/**
 * Every object key of the media bucket, in one place: what services write, readers find and
 * tests look up. Keys hold ids only, never names a client chose.
 */

/** The R2 key of a video's uploaded bytes. */
export function sourceKey(videoId: string): string {
  return `videos/${videoId}/source`;
}

/** Where a direct upload session's target PUTs land until completion copies them to the source. */
export function stagingKey(videoId: string, sessionToken: string): string {
  return `staging/${videoId}/${sessionToken}`;
}

/**
 * Where a video's thumbnail is stored, fixed before processing makes it (its content type is
 * kept on the object), so the URL can be given from the moment the upload completes.
 */
export function thumbnailKeyOf(videoId: string): string {
  return `videos/${videoId}/thumbnail`;
}

/** The R2 key of a video's index document. */
export function indexKey(videoId: string): string {
  return `videos/${videoId}/index.json`;
}

const REPORT_EXTENSIONS = { json: "json", markdown: "md" } as const;

/** Where every report of a run (content and manifest) is kept: erasing the run empties it. */
export function runReportsPrefix(runId: string): string {
  return `reports/${runId}/`;
}

/** The R2 key of a rendered report's content. */
export function reportKey(
  runId: string,
  reportId: string,
  format: keyof typeof REPORT_EXTENSIONS,
): string {
  return `${runReportsPrefix(runId)}${reportId}.${REPORT_EXTENSIONS[format]}`;
}

/** The R2 key of a report's manifest: one entry per answer and cited span, so it lives in R2. */
export function reportManifestKey(runId: string, reportId: string): string {
  return `${runReportsPrefix(runId)}${reportId}.manifest.json`;
}

/** Where a workspace's CSV import files are kept: erasing the workspace empties it. */
export function csvImportsPrefix(workspaceId: string): string {
  return `csv-imports/${workspaceId}/`;
}

/** Where a CSV import session keeps its file (UTF-8, BOM removed) until it expires. */
export function csvImportKey(workspaceId: string, sessionId: string): string {
  return `${csvImportsPrefix(workspaceId)}${sessionId}.csv`;
}

/** Where the production engine keeps the frame it took for the thumbnail until assembly. */
export function thumbnailFrameKey(videoId: string): string {
  return `videos/${videoId}/thumbnail-frame`;
}

/** Where processing keeps a video's probe for the invocations that understand its windows. */
export function probeKey(videoId: string): string {
  return `videos/${videoId}/probe.json`;
}

/** Where processing keeps the cover art the probe found, beside the probe. */
export function coverArtKey(videoId: string): string {
  return `videos/${videoId}/cover-art`;
}

/** Where processing keeps a Cues-less Matroska file's Cluster positions, beside the probe. */
export function clusterIndexKey(videoId: string): string {
  return `videos/${videoId}/cluster-index`;
}

/**
 * Every prefix a video's objects live under (source, probe, frames, thumbnail, cluster index,
 * index document, staged upload bytes): erasing a video empties them.
 */
export function videoPrefixes(videoId: string): string[] {
  return [`videos/${videoId}/`, `staging/${videoId}/`];
}

/** The keys a video's signed URLs point at (clips, thumbnail, cover art), deleted at once on DELETE. */
export function videoServedKeys(videoId: string): string[] {
  return [sourceKey(videoId), thumbnailKeyOf(videoId), coverArtKey(videoId)];
}

/** Where the caption files uploaded for a video are kept, one object per language. */
export function captionsPrefix(videoId: string): string {
  return `videos/${videoId}/captions/`;
}

/** The R2 key of the caption file uploaded for a video in one language (a BCP 47 tag). */
export function captionKey(videoId: string, language: string): string {
  return `${captionsPrefix(videoId)}${language}`;
}
