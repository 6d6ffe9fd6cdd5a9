/**
 * What a deployment's media engine takes from a video beyond what every engine reads (caption
 * and subtitle tracks, uploaded captions, container tags, cover art and the filename). Declared
 * where the adapters are chosen, reported by GET /healthz and named by search, so what the
 * service says it understands is what runs.
 */
export interface MediaAbilities {
  /** The engine's id, as stored with what it made (`local-media@2`). */
  engine: string;
  /** Speech in the audio is recognised. */
  speech: boolean;
  /** Pictures are described (sampled frames). */
  pictures: boolean;
  /** Text written on screen is read. */
  onScreenText: boolean;
}
