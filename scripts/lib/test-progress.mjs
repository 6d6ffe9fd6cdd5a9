// A Vitest reporter that writes the run's progress, one JSON line per event, to the file named
// by VAS_TEST_PROGRESS, as it happens: `npm test`'s watchdog (scripts/test.mjs) reads it to
// tell a run that is working from one that has stopped, and which files did not finish.
import { appendFileSync } from "node:fs";

const FILE = process.env.VAS_TEST_PROGRESS;

function write(event) {
  if (FILE) appendFileSync(FILE, `${JSON.stringify({ at: Date.now(), ...event })}\n`);
}

/** Progress events: planned files, files ended with their state, tests and hooks in flight. */
export default class TestProgress {
  onTestRunStart(specifications) {
    for (const spec of specifications) {
      write({ event: "planned", project: spec.project.name, file: spec.moduleId });
    }
  }

  onTestModuleStart(module) {
    write({ event: "module-start", project: module.project.name, file: module.moduleId });
  }

  onTestModuleEnd(module) {
    const state = module.state();
    // How many tests the file collected: a file that failed with none never ran a test.
    const tests = [...module.children.allTests()].length;
    write({
      event: "module-end",
      project: module.project.name,
      file: module.moduleId,
      state,
      tests,
    });
  }

  onTestCaseReady(test) {
    write({ event: "case-start", id: test.id });
  }

  onTestCaseResult(test) {
    write({ event: "case-end", id: test.id, state: test.result().state });
  }

  onHookStart(hook) {
    write({ event: "hook-start", id: `${hook.entity.id}:${hook.name}` });
  }

  onHookEnd(hook) {
    write({ event: "hook-end", id: `${hook.entity.id}:${hook.name}` });
  }
}
