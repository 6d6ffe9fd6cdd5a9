import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { VasClient } from "../client.js";
import * as captions from "./captions-commands.js";
import * as commands from "./commands.js";
import { EXIT, type GlobalOptions, settings } from "./config.js";
import { reportFailure, reportRateLimited } from "./output.js";
import * as review from "./review-commands.js";
import { uploadCommand } from "./upload-command.js";
import { type UsageFlags, usage } from "./usage-command.js";

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer.");
  return n;
}

function unitInterval(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError("must be a number from 0 to 1.");
  return n;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

const program = new Command("vas")
  .description("The Video Analysis Service from a terminal.")
  .addOption(new Option("--base-url <url>", "service URL (else VAS_BASE_URL, else config)"))
  .addOption(new Option("--api-key <key>", "API key (else VAS_API_KEY, else config)"))
  .option("--json", "print JSON for scripts instead of text")
  .showHelpAfterError()
  .exitOverride();

/** Runs a command with the resolved settings and exits with its code. */
function action<A extends unknown[]>(
  body: (client: VasClient, s: ReturnType<typeof settings>, ...args: A) => Promise<number>,
) {
  return async (...args: A) => {
    try {
      const s = settings(program.opts<GlobalOptions>());
      const client = new VasClient({
        baseUrl: s.baseUrl,
        apiKey: s.apiKey,
        onRateLimited: reportRateLimited,
      });
      process.exitCode = await body(client, s, ...args);
    } catch (error) {
      process.exitCode = reportFailure(error);
    }
  };
}

const timeout = () =>
  new Option("--timeout <seconds>", "give up waiting after this").argParser(positive).default(600);

program
  .command("upload")
  .description("upload videos (resumes an interrupted upload of the same file)")
  .argument("<files...>")
  .option("--wait", "wait until each video is processed")
  .addOption(new Option("--concurrency <n>", "parts in flight").argParser(positive).default(4))
  .addOption(timeout())
  .action(
    action(
      (
        client,
        s,
        files: string[],
        flags: { wait?: boolean; concurrency: number; timeout: number },
      ) => uploadCommand(client, s, files, flags),
    ),
  );

const videos = program.command("videos").description("list, show, wait for or delete videos");
videos
  .command("ls", { isDefault: true })
  .addOption(new Option("--limit <n>", "at most this many").argParser(positive).default(25))
  .action(action((client, s, flags: { limit: number }) => commands.listVideos(client, s, flags)));
videos
  .command("get")
  .argument("<video_id>")
  .action(action((client, s, id: string) => commands.getVideo(client, s, id)));
videos
  .command("rm")
  .description("delete a video and everything derived from it")
  .argument("<video_id>")
  .action(action((client, s, id: string) => commands.removeVideo(client, s, id)));
videos
  .command("wait")
  .argument("<video_id>")
  .addOption(timeout())
  .action(
    action((client, s, id: string, flags: { timeout: number }) =>
      commands.waitVideo(client, s, id, flags.timeout),
    ),
  );

program
  .command("search")
  .description("search indexed videos")
  .argument("<query>")
  .option("--video <video_id>", "only this video (repeatable)", collect)
  .addOption(new Option("--limit <n>", "results").argParser(positive).default(10))
  .addOption(
    new Option("--threshold <score>", "minimum score, 0-1 (the service's default: 0.7)").argParser(
      unitInterval,
    ),
  )
  .action(
    action(
      (client, s, query: string, flags: { video?: string[]; limit: number; threshold?: number }) =>
        commands.search(client, s, query, flags),
    ),
  );

program
  .command("run")
  .description("analyse videos with a stored profile")
  .requiredOption("--profile <profile_id>", "the profile")
  .requiredOption("--video <video_id>", "a video (repeatable)", collect)
  .option("--wait", "wait until the run ends")
  .option("--report <format>", "wait, then print the run's report (json or markdown)")
  .addOption(timeout())
  .action(
    action(
      (
        client,
        s,
        flags: {
          profile: string;
          video: string[];
          wait?: boolean;
          report?: string;
          timeout: number;
        },
      ) => commands.run(client, s, flags),
    ),
  );

program
  .command("profiles")
  .description("list analysis profiles")
  .action(action((client, s) => commands.profiles(client, s)));

program
  .command("reports")
  .description("list a run's reports")
  .requiredOption("--run <run_id>", "the run")
  .action(action((client, s, flags: { run: string }) => commands.reports(client, s, flags.run)));

program
  .command("usage")
  .description("the workspace's usage per day (or month) and its totals")
  .option("--from <day>", "first day, included (default: 29 days before --to)")
  .option("--to <day>", "last day, included (default: today)")
  .option("--month", "a row per calendar month")
  .action(action((client, s, flags: UsageFlags) => usage(client, s, flags)));

const captionsCommand = program
  .command("captions")
  .description("upload, read or list a video's captions");
captionsCommand
  .command("ls", { isDefault: true })
  .argument("<video_id>")
  .action(action((client, s, id: string) => captions.listCaptions(client, s, id)));
captionsCommand
  .command("get")
  .description("print what was heard in a language as WebVTT (or --format srt)")
  .argument("<video_id>")
  .argument("<language>")
  .option("--format <format>", "webvtt or srt", "webvtt")
  .action(
    action((client, _s, id: string, language: string, flags: { format: string }) =>
      captions.getCaptions(client, id, language, flags),
    ),
  );
captionsCommand
  .command("put")
  .description("upload a .vtt or .srt file; the video is re-indexed with it")
  .argument("<video_id>")
  .argument("<language>", "BCP 47 tag, e.g. en or pt-BR")
  .argument("<file>")
  .option("--format <format>", "webvtt or srt (else from the file's extension)")
  .option("--wait", "wait until the video is indexed again")
  .addOption(timeout())
  .action(
    action(
      (
        client,
        s,
        id: string,
        language: string,
        file: string,
        flags: { format?: string; wait?: boolean; timeout: number },
      ) => captions.putCaptions(client, s, { videoId: id, language, file }, flags),
    ),
  );

const rulebooks = program.command("rulebooks").description("import or list rulebooks");
rulebooks
  .command("ls", { isDefault: true })
  .action(action((client, s) => review.listRulebooks(client, s)));
rulebooks
  .command("import")
  .description("import a CSV of rules (one rulebook per rulebook-name value)")
  .argument("<file.csv>")
  .option("--name <name>", "rulebook name for rows without one (default: the file's name)")
  .action(
    action((client, s, file: string, flags: { name?: string }) =>
      review.importRulebooks(client, s, file, flags),
    ),
  );

const workflows = program.command("workflows").description("create or run workflows");
workflows
  .command("create")
  .description("bind a rulebook to completed videos")
  .requiredOption("--rulebook <rulebook_id>", "the rulebook")
  .requiredOption("--video <video_id>", "a video (repeatable)", collect)
  .requiredOption("--name <name>", "the workflow's name")
  .option("--playbook <text>", "how to judge the rules")
  .action(
    action(
      (client, s, flags: { rulebook: string; video: string[]; name: string; playbook?: string }) =>
        review.createWorkflow(client, s, flags),
    ),
  );
workflows
  .command("run")
  .description("run a workflow: one finding per rule and video")
  .argument("<workflow_id>")
  .option("--wait", "wait until the run ends, then print its findings")
  .addOption(timeout())
  .action(
    action((client, s, id: string, flags: { wait?: boolean; timeout: number }) =>
      review.runWorkflow(client, s, id, flags),
    ),
  );

const findings = program.command("findings").description("list or review findings");
findings
  .command("ls", { isDefault: true })
  .option("--run <run_id>", "only this run's")
  .option("--video <video_id>", "only this video's")
  .action(
    action((client, s, flags: { run?: string; video?: string }) =>
      review.listFindings(client, s, flags),
    ),
  );
findings
  .command("review")
  .argument("<finding_id>")
  .requiredOption("--status <status>", "confirmed, dismissed, resolved or open")
  .option("--note <text>", "why")
  .action(
    action((client, s, id: string, flags: { status: string; note?: string }) =>
      review.reviewFinding(client, s, id, flags),
    ),
  );

try {
  await program.parseAsync();
} catch (error) {
  // Commander has printed its message; help and version are not failures.
  if (error instanceof CommanderError)
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  else process.exitCode = reportFailure(error);
}
