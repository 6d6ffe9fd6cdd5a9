import type { AnswerItem } from "../../domain/answers";
import type { EvidenceRef } from "../../domain/evidence";
import { stems } from "../../lib/text/search-scoring";
import { type AnswerContext, excerpt, reasonSentence } from "../context";
import { distinctRefs } from "../evidence-ids";
import { isSupporting, matchInspection } from "../matching";
import type { AnswerDraft } from "../payload";
import { probeFrom, probeSources, type QuestionProbe, specMode } from "../question-probes";
import { aggregateAny } from "../states";
import {
  attribute,
  foundSentence,
  refsOf,
  setDecision,
  stateEvidence,
  videoDecisions,
} from "./shared";

interface Candidate {
  key: string;
  label: string;
  probes: QuestionProbe[];
}

/**
 * Values the spec names: its quoted phrases, else its fields when it has two or more (each
 * field's label and description are that value's probes).
 */
export function namedCandidates(ctx: AnswerContext): Candidate[] {
  const { spec, instructions } = ctx.request;
  const mode = specMode(spec, instructions, ctx.request.mode, ctx.reading);
  const quoted = [
    ...new Set(
      probeSources(spec, instructions).flatMap((s) =>
        [...s.replace(/[“”]/g, '"').matchAll(/"([^"]+)"/g)].map((m) => (m[1] ?? "").trim()),
      ),
    ),
  ].filter(Boolean);
  if (quoted.length > 0) {
    return quoted.flatMap((phrase) => {
      const probe = probeFrom(`"${phrase}"`, mode, false, ctx.reading);
      return probe ? [{ key: phrase.toLowerCase(), label: phrase, probes: [probe] }] : [];
    });
  }
  const fields = (spec.fields ?? []).filter(
    (f, i, all) => all.findIndex((other) => other.key === f.key) === i,
  );
  if (fields.length < 2) return [];
  return fields.flatMap((f) => {
    const probes = [f.label, f.description ?? ""].flatMap(
      (t) => probeFrom(t, mode, false, ctx.reading) ?? [],
    );
    return probes.length > 0 ? [{ key: f.key, label: f.label, probes }] : [];
  });
}

/** Each named value decided like a verdict of its own. */
function candidateItems(ctx: AnswerContext, candidates: Candidate[]) {
  return candidates.map((c) => {
    const matches = matchInspection(ctx.inspection, c.probes, ctx.requirement, ctx.readingOf);
    const { overall } = videoDecisions(ctx, matches, c.probes);
    const item: AnswerItem = {
      item_id: c.key,
      label: c.label,
      result_state: overall.state,
      ...(overall.state === "found" ? { value: c.label } : {}),
      attributes: [attribute("segments", "Matching segments", matches.filter(isSupporting).length)],
      evidence: stateEvidence(overall.state, matches),
    };
    return { item, decision: overall };
  });
}

// A capitalised run that does not open a sentence: a name ("Dana Okafor", "Loading Bay 4").
const NAME = /(?<![.!?]\s*|^\s*)\b(\p{Lu}[\p{L}\p{N}'’-]+(?:\s+\p{Lu}[\p{L}\p{N}'’-]*)*)/gu;

/**
 * Values found in the supporting sentences (those holding every probe word): the segments'
 * tags whose words appear in one, and capitalised names inside one; failing both, the
 * supporting sentences themselves. A name elsewhere in a matching segment is not a value.
 */
function derivedItems(ctx: AnswerContext): AnswerItem[] {
  const values = new Map<string, { label: string; evidence: EvidenceRef[] }>();
  const add = (label: string, refs: EvidenceRef[]) => {
    const key = label.toLowerCase();
    const entry = values.get(key) ?? { label, evidence: [] };
    entry.evidence.push(...refs);
    values.set(key, entry);
  };
  const supporting = ctx.matches.filter(isSupporting);
  for (const match of supporting) {
    for (const unit of match.strongUnits) {
      const words = stems(unit.text).join(" ");
      for (const tag of match.segment.tags) {
        const tagWords = stems(tag).join(" ");
        if (!tag.startsWith("lang:") && tagWords !== "" && ` ${words} `.includes(` ${tagWords} `)) {
          add(tag, unit.evidence);
        }
      }
      // Where every noun is capitalised (German), a capital letter does not mark a name.
      if (ctx.reading.capitalisesNouns) continue;
      for (const m of unit.text.matchAll(NAME)) add((m[1] ?? "").trim(), unit.evidence);
    }
  }
  if (values.size === 0) {
    for (const unit of supporting.flatMap((m) => m.strongUnits)) {
      add(excerpt(unit.text, 120), unit.evidence);
    }
  }
  return [...values.entries()].map(([key, v]) => ({
    item_id: key,
    label: v.label,
    result_state: "found",
    value: v.label,
    attributes: [attribute("mentions", "Mentions", distinctRefs(v.evidence).length)],
    evidence: distinctRefs(v.evidence),
  }));
}

/**
 * A set of distinct values, each with its own state and evidence. Named values: found when
 * any is found, else aggregated like verdicts. Derived values: found when any, else what the
 * videos say.
 */
export function answerEnumeration(ctx: AnswerContext): AnswerDraft {
  const candidates = namedCandidates(ctx);
  const decided = candidateItems(ctx, candidates);
  const items = candidates.length > 0 ? decided.map((d) => d.item) : derivedItems(ctx);
  const found = items.filter((i) => i.result_state === "found");
  const decision =
    candidates.length > 0 ? aggregateAny(decided.map((d) => d.decision)) : setDecision(ctx, items);
  const contributing =
    decision.state === "found"
      ? found.flatMap((i) => i.evidence)
      : decision.state === "uncertain"
        ? [...items.flatMap((i) => i.evidence), ...refsOf(ctx.matches)]
        : [];
  const summary =
    decision.state === "found"
      ? `${found.map((i) => i.label).join(", ")}: ${foundSentence(ctx, found, "value")}`
      : reasonSentence(ctx, decision);
  const known = decision.state === "found" || decision.state === "not_found";
  return {
    decision,
    summary,
    ...(known ? { value: found.length } : {}),
    unit: "values",
    items,
    contributing,
    eventCount: found.length,
  };
}
