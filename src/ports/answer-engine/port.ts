import type { AnswerRequest, EngineAnswer } from "../../answer-engine/types";

/** Several answers, and the model calls they took together. */
export interface BatchAnswers {
  answers: EngineAnswer[];
  modelCalls: number;
}

/** Answers one answer spec over the indexed videos; two adapters (local rules, Workers AI). */
export interface AnswerEngine {
  readonly id: string;
  answer(request: AnswerRequest): Promise<EngineAnswer>;
  /**
   * Answers several specs over the same videos in as few model calls as the model's context
   * allows (engines that call no model leave it out); answers come in the requests' order.
   */
  answerMany?(requests: AnswerRequest[]): Promise<BatchAnswers>;
}
