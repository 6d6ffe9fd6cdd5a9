import { describe, expect, it } from "vitest";
import { InvocationScope } from "../../../src/lib/invocation-scope";
import { probeMedia } from "../../../src/media/probe";
import type { FrameImage } from "../../../src/media-understanding/assemble";
import { pacedAi } from "../../../src/ports/ai/model-calls";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { instantCalls } from "../../helpers/instant-calls";
import { loopVideo } from "../../helpers/long-video";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource, countingSource } from "../../helpers/media-sources";
import { understandInput } from "./probes";
import { RecordingAi, RecordingMedia } from "./recording-fakes";

const frames = {
  put: async (_videoId: string, _frame: FrameImage) => {},
  get: async (_videoId: string) => null,
};

/** Every window of the video's plan, worked side by side as a batch works them. */
async function workAll(scope: InvocationScope | undefined) {
  const bytes = await loopVideo(fixtureBytes("talk.mp4"), { loops: 30 });
  const source = countingSource(bytesSource(bytes));
  const probe = await probeMedia(bytesSource(bytes), {
    filename: "long.mp4",
    contentType: "video/mp4",
  });
  const engine = new WorkersAiMediaUnderstanding({
    ai: pacedAi(new RecordingAi(), instantCalls()),
    media: new RecordingMedia(),
    frames,
  });
  const input = { ...understandInput(probe, { filename: "long.mp4", source }), scope };
  const windows = engine.plan(input);
  const results = await Promise.all(windows.map((w) => engine.understandWindow(input, w)));
  return { results, windows: windows.length, read: source.log.bytes };
}

describe("windows of one video in one invocation", () => {
  it("share the opened source: its index is read once, and every result is the same", async () => {
    const apart = await workAll(undefined);
    const scope = new InvocationScope();
    const shared = await workAll(scope);
    scope.dispose();
    expect(shared.windows).toBeGreaterThanOrEqual(8);
    expect(shared.results).toEqual(apart.results);
    // Apart, each window reads the container index again; shared, once for all of them.
    expect(shared.read).toBeLessThan(apart.read / 2);
  });

  it("opens a named thing once per scope and lets go of everything at the end", () => {
    const scope = new InvocationScope();
    const disposed: string[] = [];
    const open = (name: string) => () => ({ name, dispose: () => disposed.push(name) });
    const first = scope.getOrOpen("a", open("a1"));
    expect(scope.getOrOpen("a", open("a2"))).toBe(first);
    scope.getOrOpen("b", open("b1"));
    expect(disposed).toEqual([]);
    scope.dispose();
    expect(disposed).toEqual(["a1", "b1"]);
  });
});
