import type { AnswerRow } from "../../db/repos/runs";
import { type DeletedSources, redactPayload } from "../deletion/redact";
import type { EvidenceLinker } from "../media/evidence-urls";
import type { StoredAnswer } from "../reports/types";

/** An answer as clients see it (the spec's Answer section), documented in list-answers.ts. */
export interface AnswerDto extends StoredAnswer {
  provenance: Record<string, unknown>;
}

/**
 * Renders an answer with signed clip URLs on its evidence; what it quotes or links of a
 * deleted video is withheld (`redactPayload`).
 */
export async function presentAnswer(
  answer: AnswerRow,
  linker: EvidenceLinker,
  deleted: DeletedSources,
): Promise<AnswerDto> {
  const dto: AnswerDto = {
    id: answer.id,
    key: answer.key,
    type: answer.type,
    result_state: answer.resultState,
    coverage: answer.coverage,
    event_count: answer.eventCount,
    evidence_count: answer.evidenceCount,
    answer_payload: await linker.linkPayload(redactPayload(answer.payload, deleted)),
    provenance: answer.provenance,
  };
  if (answer.reasonCode !== null) dto.reason_code = answer.reasonCode;
  return dto;
}
