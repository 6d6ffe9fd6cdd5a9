import { closeSync, mkdtempSync, openSync, readFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { adminClient, newTenant } from "../local-client";
import { freePort, LocalProcess } from "../local-process";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const ADMIN_TOKEN = "client-e2e-admin-token";

/** One local process with a workspace and a key holding every permission. */
export async function startService() {
  const stateDir = mkdtempSync(path.join(tmpdir(), "vas-client-"));
  const service = new LocalProcess(await freePort(), { STATE_DIR: stateDir, ADMIN_TOKEN });
  await service.start();
  const { key } = await newTenant(adminClient(service, ADMIN_TOKEN), "Client");
  return { service, stateDir, apiKey: key };
}

/**
 * A valid MP4 of `size` bytes: talk.mp4, then one `free` box whose bytes follow a pattern
 * (every 4 KiB block starts with its offset), so a part stored at the wrong place shows.
 */
export function writeBigMp4(size: number): { file: string } {
  const base = readFileSync(path.join(ROOT, "test/fixtures/media/talk.mp4"));
  const file = path.join(mkdtempSync(path.join(tmpdir(), "vas-big-")), "big.mp4");
  const fd = openSync(file, "w");
  const write = (bytes: Uint8Array) => writeSync(fd, bytes);
  write(base);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(size - base.length, 0);
  header.write("free", 4, "latin1");
  write(header);
  const block = Buffer.alloc(1024 * 1024);
  for (let at = base.length + 8; at < size; at += block.length) {
    for (let i = 0; i < block.length; i += 4096) block.writeUInt32BE((at + i) >>> 0, i);
    write(block.subarray(0, Math.min(block.length, size - at)));
  }
  closeSync(fd);
  return { file };
}
