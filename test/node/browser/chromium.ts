import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { LaunchOptions } from "playwright-core";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PACKAGE = path.join(ROOT, "node_modules/@sparticuz/chromium");

/**
 * Headless flags for a machine with no display and a closed network: without the
 * background-networking, component-update and sync flags Chromium keeps calling Google
 * services, which the network refuses.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Unpacks the Chromium shipped inside `@sparticuz/chromium` once per version into
 * `node_modules/.cache`. The package inflates into `os.tmpdir()` and treats an existing file
 * as done, so it runs in a child with its own TMPDIR, and the finished folder is renamed into
 * place: a run killed half-way or a second test process never sees a partial binary.
 */
async function unpackedChromium(): Promise<string> {
  const { version } = JSON.parse(readFileSync(path.join(PACKAGE, "package.json"), "utf8")) as {
    version: string;
  };
  const cache = path.join(ROOT, "node_modules/.cache");
  const target = path.join(cache, `sparticuz-chromium-${version}`);
  if (existsSync(path.join(target, "chromium"))) return target;
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(path.join(cache, "sparticuz-chromium-staging-"));
  try {
    await promisify(execFile)(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'await (await import("@sparticuz/chromium")).default.executablePath();',
      ],
      { cwd: ROOT, env: { ...process.env, TMPDIR: staging } },
    );
    // The package's own fonts.conf names /tmp/fonts; this one names where its fonts are now,
    // after the machine's fonts, so text renders even where no font is installed.
    mkdirSync(path.join(staging, "fontconfig"));
    writeFileSync(
      path.join(staging, "fontconfig/fonts.conf"),
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        "<fontconfig>",
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
        `  <dir>${path.join(target, "fonts/fonts")}</dir>`,
        `  <cachedir>${path.join(target, "fontconfig/cache")}</cachedir>`,
        "</fontconfig>",
        "",
      ].join("\n"),
    );
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another test process renamed its copy into place first.
    if (existsSync(path.join(target, "chromium"))) return target;
    throw error;
  }
  return target;
}

/**
 * How the browser tests launch Chromium: the executable named by `CHROMIUM_PATH` when set
 * (a browser already on the machine), else the one shipped in `@sparticuz/chromium`.
 */
export async function chromiumLaunchOptions(): Promise<LaunchOptions> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return { executablePath: configured, args: CHROMIUM_ARGS };
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(
      `@sparticuz/chromium ships a Chromium for Linux x64 only; set CHROMIUM_PATH to a Chromium for ${process.platform} ${process.arch}`,
    );
  const folder = await unpackedChromium();
  return {
    executablePath: path.join(folder, "chromium"),
    args: CHROMIUM_ARGS,
    env: { ...process.env, FONTCONFIG_PATH: path.join(folder, "fontconfig") },
  };
}
