import type { AnswerPayload } from "../../domain/answers";
import type { EvidenceRef } from "../../domain/evidence";
import { sourceKey } from "../../lib/object-keys";
import type { Ports } from "../../ports";
import { MEDIA_URL_TTL_MS } from "./urls";

/** Signs each stored object once per request, and points evidence at its span (`#t=start,end`). */
export class EvidenceLinker {
  private readonly signed = new Map<string, Promise<string>>();
  private readonly expiresAt = new Date(Date.now() + MEDIA_URL_TTL_MS);

  constructor(
    private readonly ports: Ports,
    private readonly origin: string,
  ) {}

  /** A signed GET URL of a stored object, signed once per object for this linker. */
  signedUrl(key: string): Promise<string> {
    let url = this.signed.get(key);
    if (!url) {
      url = this.ports.storage.presignGet(key, this.expiresAt, { origin: this.origin });
      this.signed.set(key, url);
    }
    return url;
  }

  /** The signed URL of a video's stored source. */
  sourceUrl(videoId: string): Promise<string> {
    return this.signedUrl(sourceKey(videoId));
  }

  /** The signed clip URL of an evidence span. */
  async clipUrl(ref: Pick<EvidenceRef, "video_id" | "start_time" | "end_time">): Promise<string> {
    return `${await this.sourceUrl(ref.video_id)}#t=${ref.start_time},${ref.end_time}`;
  }

  /** A reference with its signed clip URL; a redacted one (its video deleted) links nothing. */
  async link<T extends EvidenceRef>(ref: T): Promise<T & { clip_url?: string }> {
    if (ref.redacted !== undefined) return ref;
    return { ...ref, clip_url: await this.clipUrl(ref) };
  }

  /** A payload whose every evidence reference carries its clip URL. */
  async linkPayload(payload: AnswerPayload): Promise<AnswerPayload> {
    const links = (refs: EvidenceRef[] | undefined) =>
      Promise.all((refs ?? []).map((ref) => this.link(ref)));
    return {
      ...payload,
      items: await Promise.all(
        payload.items.map(async (item) => ({
          ...item,
          evidence: await links(item.evidence),
          attributes: await Promise.all(
            item.attributes.map(async (attribute) =>
              attribute.evidence === undefined
                ? attribute
                : { ...attribute, evidence: await links(attribute.evidence) },
            ),
          ),
        })),
      ),
      evidence_summary: {
        ...payload.evidence_summary,
        representative: await links(payload.evidence_summary.representative),
      },
    };
  }
}
