import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { expectErased, expectNothingReadable } from "./checks";
import { interleave, type OpPlan } from "./interleaver";
import { advance, operation } from "./operations";
import { quiesce, startUpload } from "./schedule";
import { buildWorld, type Mode } from "./world";

/** Runs to its end without stopping. */
const FREE: OpPlan = { pauses: [], crashAt: null };
const QUIET = { fate: "redelivered", duplicate: false } as const;
/** The oldest message of the processing queue: processing, or the erasure sent since. */
const NEXT_PROCESSING = { kind: "deliver", lane: "processing", delivery: QUIET } as const;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now());
});

afterEach(() => {
  vi.useRealTimers();
});

describe.each<Mode>(["local", "production"])("a deletion racing work on the video (%s)", (mode) => {
  it("never stores a caption file after the video was erased", async () => {
    const world = await buildWorld(mode);
    const c = await startUpload(world, true);
    await quiesce(world);
    const [captions] = await interleave(
      [
        operation(world, c, { kind: "captions" }, { ...FREE, pauseBefore: /r2 put .*captions/ }),
        operation(world, c, { kind: "delete" }, FREE),
        operation(world, c, NEXT_PROCESSING, FREE),
      ],
      // The captions request stops before storing the file; the deletion and its erasure
      // run to their end; the request goes on.
      [0, 1, 1, 0],
    );
    expect(captions?.parked).toEqual([`r2 put videos/${c.videoId}/captions/en`]);
    await quiesce(world);
    await expectNothingReadable(world, c, "after the sweep", { urls: true });
    await expectErased(world, c, "after the sweep");
  });

  it("waits for processing that claimed the video after the deletion read it", async () => {
    const world = await buildWorld(mode);
    const c = await startUpload(world, true);
    const [deletion, processing] = await interleave(
      [
        operation(world, c, { kind: "delete" }, { ...FREE, pauseBefore: /d1 batch/ }),
        operation(world, c, NEXT_PROCESSING, { ...FREE, pauseBefore: /r2 put/ }),
        operation(world, c, NEXT_PROCESSING, FREE),
      ],
      // The deletion reads the video queued and stops; processing claims it and stops before
      // its first write to storage; the deletion ends, its erasure runs; processing goes on.
      [0, 1, 0, 1, 0],
    );
    // The deletion stopped before its mark, processing after its claim.
    expect(deletion?.parked[0]).toMatch(/^d1 batch: .*update videos/);
    const gates = processing?.gates ?? [];
    expect(gates.indexOf("d1 update videos")).toBeGreaterThan(-1);
    expect(gates.indexOf("d1 update videos")).toBeLessThan(
      gates.indexOf(processing?.parked[0] ?? ""),
    );
    await quiesce(world);
    await expectNothingReadable(world, c, "after the sweep", { urls: true });
    await expectErased(world, c, "after the sweep");
  });
});

describe("a deletion racing work on the video", () => {
  it("deletes again the thumbnail an assembly in flight stored after the deletion", async () => {
    // The local engine assembles as it processes, so the assembly is one delivery here.
    const world = await buildWorld("local");
    const c = await startUpload(world, true);
    // A client read the video first: its thumbnail URL is handed out before processing.
    await interleave([operation(world, c, { kind: "read" }, FREE)], [0]);
    expect(c.urls.size).toBeGreaterThan(0);
    const [assembly] = await interleave(
      [
        operation(world, c, NEXT_PROCESSING, { ...FREE, pauseBefore: /r2 put .*thumbnail/ }),
        operation(world, c, { kind: "delete" }, FREE),
      ],
      // Processing stops before storing the thumbnail; the deletion runs; processing goes on.
      [0, 1, 0],
    );
    expect(assembly?.parked).toEqual([`r2 put videos/${c.videoId}/thumbnail`]);
    await expectNothingReadable(world, c, "once the assembly in flight ended", { urls: true });
    await quiesce(world);
    await expectErased(world, c, "after the sweep");
  });

  it("waits for a window whose claim outlived the video's lease", async () => {
    // Only the production engine plans windows.
    const world = await buildWorld("production");
    const c = await startUpload(world, true);
    await interleave([operation(world, c, NEXT_PROCESSING, FREE)], [0]);
    expect(world.queues.frames.pending.length).toBeGreaterThan(0);
    // Planned 45 s ago: the lease is still live, and a window is picked up.
    advance(45_000);
    const frames = { kind: "deliver", lane: "frames", delivery: QUIET } as const;
    const [window] = await interleave(
      [
        operation(world, c, frames, { ...FREE, pauseBefore: /r2 put .*thumbnail-frame/ }),
        // Less than a heartbeat: the window has not renewed anything yet.
        operation(world, c, { kind: "pause", seconds: 16 }, FREE),
        operation(world, c, { kind: "delete" }, FREE),
        operation(world, c, NEXT_PROCESSING, FREE),
      ],
      [0, 1, 1, 1, 0],
    );
    expect(window?.parked).toEqual([`r2 put videos/${c.videoId}/thumbnail-frame`]);
    await quiesce(world);
    await expectNothingReadable(world, c, "after the sweep", { urls: true });
    await expectErased(world, c, "after the sweep");
  });
});
