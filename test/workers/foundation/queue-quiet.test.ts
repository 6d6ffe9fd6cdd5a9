import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { queuesQuiet } from "../../helpers/queue-quiet";

// The setup file ends each file with queuesQuiet: it must wait out a message still queued, and
// cost nothing when none is.
describe("waiting for the queues to empty before a file ends", () => {
  it("returns at once when no queue holds a message", async () => {
    // Whatever work this shared workerd still holds is waited out first.
    await queuesQuiet();
    expect(await queuesQuiet()).toBeLessThan(250);
  });

  it("waits until a message sent last has been handed to its consumer", async () => {
    await env.ANALYSIS_QUEUE.send({
      type: "run-analysis",
      run_id: "run_0000000000000000000000000",
      workspace_id: "ws_0000000000000000000000000",
    });
    expect((await env.ANALYSIS_QUEUE.metrics()).backlogCount).toBe(1);
    // The batch timeout is 1 s (wrangler.toml): the message is held at least that long.
    expect(await queuesQuiet()).toBeGreaterThanOrEqual(500);
    expect((await env.ANALYSIS_QUEUE.metrics()).backlogCount).toBe(0);
  });
});
