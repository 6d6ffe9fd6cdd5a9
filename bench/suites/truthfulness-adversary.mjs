// What the adversarial simulated answer model did (its ledger, GET /__simulator/answer-errors)
// against what the service stored: per kind of error, how many it made, how many the service's
// checks caught (the stored answer does not carry the erroneous claim), and the false found and
// unbacked negatives stored for those questions.

/** Every error the simulated model recorded, oldest first. */
export async function answerErrors(service) {
  const res = await fetch(`${service.baseUrl}/__simulator/answer-errors`);
  if (!res.ok) throw new Error(`answer-errors: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return Array.isArray(body) ? body : (body.errors ?? []);
}

const payloadOf = (answer) => answer.answer_payload ?? {};

function storedIds(answer) {
  const payload = payloadOf(answer);
  return [
    ...(answer.evidence_ids ?? []),
    ...(payload.evidence_summary?.representative ?? []).map((r) => r.evidence_id),
    ...(payload.items ?? []).flatMap((i) => (i.evidence ?? []).map((r) => r.evidence_id)),
  ];
}

const foundItems = (items) => (items ?? []).filter((i) => i.result_state === "found").length;

/** Whether the stored answer carries the model's erroneous claim. */
function carries(entry, answer) {
  const claim = entry.claimed ?? {};
  if (claim.result_state === "not_found") return answer.result_state === "not_found";
  if (claim.result_state !== "found" || answer.result_state !== "found") return false;
  const value = payloadOf(answer).value;
  switch (entry.kind) {
    case "wrong_number":
      // A wrong unit with the right number is carried only if the unit is stored too.
      return value === claim.value && (claim.unit ?? null) === (payloadOf(answer).unit ?? null);
    case "found_false":
      return value === false;
    case "invented_quote":
      // Stored answers quote only what the service read: the invented words would show in its
      // summary if anywhere.
      return (claim.quotes ?? []).some((q) => (payloadOf(answer).summary ?? "").includes(q));
    case "skipped_items":
      return foundItems(payloadOf(answer).items) <= foundItems(claim.items);
    default: {
      const ids = new Set(claim.evidence_ids ?? []);
      return storedIds(answer).some((id) => ids.has(id));
    }
  }
}

/** The kinds of error the adversarial model makes (docs/simulators.md), each shown, met or not. */
const KINDS = [
  "prohibition_met_by_breach",
  "negated_support",
  "instruction_as_event",
  "skipped_items",
  "wrong_number",
  "found_false",
  "unlooked_negative",
  "shifted_time",
  "invented_quote",
  "unrelated_span",
];

/** The per-kind table of what the model did and what was stored. */
export function adversaryTable(entries, cases) {
  const kinds = new Map(
    KINDS.map((kind) => [kind, { made: 0, caught: 0, falseFound: 0, unbacked: 0 }]),
  );
  const unmatched = [];
  const carried = [];
  for (const entry of entries) {
    const one = cases.find(
      (c) =>
        (c.key === entry.answer_key ||
          (c.key === "rule" && entry.answer_key === "rule_question_0")) &&
        c.description === (entry.description ?? ""),
    );
    const row = kinds.get(entry.kind) ?? { made: 0, caught: 0, falseFound: 0, unbacked: 0 };
    row.made += 1;
    if (one === undefined) unmatched.push(`${entry.kind} on "${entry.description}"`);
    else {
      if (!carries(entry, one.answer)) row.caught += 1;
      else
        carried.push(
          `${entry.kind} on "${entry.description}" (claimed ${entry.claimed?.result_state} ${entry.claimed?.value ?? ""} ${entry.claimed?.unit ?? ""}, stored ${one.answer.result_state} ${payloadOf(one.answer).value ?? ""} ${payloadOf(one.answer).unit ?? ""})`.replace(
            /\s+\)/g,
            ")",
          ),
        );
      if (one.falseFound) row.falseFound += 1;
      if (one.unbacked) row.unbacked += 1;
    }
    kinds.set(entry.kind, row);
  }
  const rows = [...kinds.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const total = rows.reduce(
    (t, [, r]) => ({
      made: t.made + r.made,
      caught: t.caught + r.caught,
      falseFound: t.falseFound + r.falseFound,
      unbacked: t.unbacked + r.unbacked,
    }),
    { made: 0, caught: 0, falseFound: 0, unbacked: 0 },
  );
  return [
    "| error kind | made by the model | caught by the service | false found stored | unbacked negatives stored |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows.map(
      ([kind, r]) => `| ${kind} | ${r.made} | ${r.caught} | ${r.falseFound} | ${r.unbacked} |`,
    ),
    `| all | ${total.made} | ${total.caught} | ${total.falseFound} | ${total.unbacked} |`,
    "",
    unmatched.length === 0
      ? "Every error the model made was matched to its question."
      : `Errors not matched to a labelled question (workflow batches or questions asked twice): ${unmatched.join("; ")}.`,
    "",
    carried.length === 0
      ? "No stored answer carries an error the model made."
      : `Stored answers that carry the model's claim: ${carried.join("; ")}.`,
    "",
  ];
}
