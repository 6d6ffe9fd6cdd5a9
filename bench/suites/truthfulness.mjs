// Truthfulness of the answer engines over labelled questions on the media fixtures. The local
// engine over both parts: `tuned` (truthfulness.json, whose words the rules were written
// against) and `held-out` (truthfulness-held-out.json, written from everyday words without
// looking at the engine, plus workflow rules). Then the held-out part through the production
// adapters over the simulators, with the simulated answer model honest and then adversarial
// (SIMULATE_ANSWERS), and what the adversary did against what the service stored. Per part
// and answer type: false `found` (a found measurement with the wrong value included),
// unbacked negatives (not_found, false or zero where the truth is not an absence), recall.
import { startService } from "../lib.mjs";
import { adversaryTable, answerErrors } from "./truthfulness-adversary.mjs";
import { runLabelled } from "./truthfulness-judge.mjs";

export const name = "truthfulness";

const TUNED = ["tuned", "truthfulness.json"];
const HELD_OUT = ["held-out", "truthfulness-held-out.json"];
const SEED = "1";

/** The held-out part through the production adapters with the simulated model in `mode`. */
async function production(mode) {
  const service = await startService({
    adapters: "production",
    env: { SIMULATE_ANSWERS: mode, SIMULATE_ANSWERS_SEED: SEED },
  });
  try {
    const [part] = await runLabelled(service, [HELD_OUT], `bench truthfulness ${mode}`);
    const errors = mode === "adversarial" ? await answerErrors(service) : [];
    return { part, errors };
  } finally {
    await service.stop();
  }
}

export async function run(service) {
  const local = await runLabelled(service, [TUNED, HELD_OUT], "bench truthfulness");
  const honest = await production("honest");
  const adversarial = await production("adversarial");
  const recall = (p) => `${p.stats.all.recalled}/${p.stats.all.trueFound}`;
  const localHeldOut = local.find((p) => p.part === "held-out");
  return [
    "### Truthfulness of the answer engines (labelled sets)",
    "",
    'Each group is one profile run over one processed fixture through the public API (fixtures from test/fixtures/media/make-truthfulness-fixtures.sh and make-held-out-fixtures.sh). `tuned` is the set the local engine\'s rules were written against; `held-out` was written from everyday words (paraphrases, synonyms, stated numbers, everyday imperatives, reported requests, hazards, German) before the engine was changed for it, and adds workflow rules (a finding\'s state against whether the requirement was met or the hazard occurred). Truth is what a careful person says from the captions: found, not_found, or cannot tell (uncertain or not_checked). A found measurement must carry the labelled value (durations compared in seconds), else it counts as a false found. An unbacked negative is not_found, false or a zero where the truth is not an absence. Targets: 0 false found and 0 unbacked negatives in every part and with either simulated model; recall through the production adapters with the honest model at least the local engine\'s. "Cautious" counts known truths answered "cannot tell": safe, but less than a person could say.',
    "",
    "#### The local engine (`npm start`)",
    "",
    ...local.flatMap((p) => p.section),
    `#### The production adapters over the simulators, honest model (\`ADAPTERS=production\`, \`SIMULATE_ANSWERS=honest\`)`,
    "",
    ...honest.part.section,
    `#### The production adapters, adversarial model (\`SIMULATE_ANSWERS=adversarial\`, seed ${SEED})`,
    "",
    ...adversarial.part.section,
    "What the adversarial model did, per kind of error (docs/simulators.md lists them), against what the service stored:",
    "",
    ...adversaryTable(adversarial.errors, adversarial.part.cases),
    `Recall of the held-out part: local ${recall(localHeldOut)}, production with the honest model ${recall(honest.part)}, with the adversarial model ${recall(adversarial.part)}.`,
    "",
  ].join("\n");
}
