import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The rooms of the Worker, bottom up. A file may import from its own layer and the layers
 * below it, never from a layer above (type imports included); nothing but the entry imports
 * from `src/routes/`. docs/architecture.md shows the rooms and docs/decisions/layering.md says
 * why the order is so.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["src/domain/", "src/env.ts"],
  ["src/errors/"],
  ["src/lib/", "src/api-prefix.ts"],
  ["src/media/"],
  ["src/media-understanding/"],
  ["src/answer-engine/"],
  ["src/db/"],
  ["src/ports/"],
  ["src/services/"],
  ["src/schemas/", "src/middleware/", "src/routes/", "src/queues/", "src/durable-objects/"],
  ["src/app.ts", "src/index.ts"],
  // The local stand-ins for the platform wrap the Worker; the Worker never imports them.
  ["simulators/"],
];

/** The layer of `src/app.ts`, the only file outside the routes that imports them. */
const ENTRY = LAYERS.findIndex((rooms) => rooms.includes("src/app.ts"));

const ROOTS = ["src", "simulators"];
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s*"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

/** The layer of a file (repository-relative, forward slashes); undefined when it has none. */
export function layerOf(file: string): number | undefined {
  const index = LAYERS.findIndex((rooms) =>
    rooms.some((room) => (room.endsWith("/") ? file.startsWith(room) : file === room)),
  );
  return index === -1 ? undefined : index;
}

/** Why an import breaks the layering, or null when it does not. */
function breach(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (!specifier.startsWith(".")) {
    // The domain is plain types and constants: not even a package.
    return from.startsWith("src/domain/") ? `${from} imports the package ${specifier}` : null;
  }
  const base = path.posix.join(path.posix.dirname(from), specifier);
  const target = /\.[cm]?[jt]s$/.test(base)
    ? base
    : ([`${base}.ts`, `${base}/index.ts`].find((file) => files.has(file)) ?? `${base}.ts`);
  // The Worker ships alone: the bench and the scripts run beside it, never inside it.
  if (from.startsWith("src/") && /^(bench|scripts)\//.test(target))
    return `${from} imports ${target}: the Worker never imports the bench or the scripts`;
  if (from.startsWith("src/domain/") && !target.startsWith("src/domain/"))
    return `${from} imports ${target} from outside the domain`;
  const own = layerOf(from);
  const theirs = layerOf(target);
  if (theirs === undefined) return `${from} imports ${target}, which belongs to no layer`;
  // Ports adapt the platform; what they store goes through the services, never their own SQL.
  if (from.startsWith("src/ports/") && target.startsWith("src/db/"))
    return `${from} imports ${target}: ports never reach the database`;
  if (own !== undefined && theirs > own) return `${from} imports ${target} from a layer above`;
  // Routes are HTTP only: what queues and Durable Objects share with them (presenters, messages)
  // lives lower down. Only the entry mounts them.
  if (target.startsWith("src/routes/") && !from.startsWith("src/routes/") && own !== ENTRY)
    return `${from} imports ${target} from the routes`;
  return null;
}

/** Every import among `sources` (path → text) that breaks the layering, and files without a layer. */
export function layeringBreaches(sources: ReadonlyMap<string, string>): string[] {
  const files = new Set(sources.keys());
  const found: string[] = [];
  for (const [file, text] of sources) {
    if (layerOf(file) === undefined) found.push(`${file} belongs to no layer`);
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2];
      const problem = specifier === undefined ? null : breach(file, specifier, files);
      if (problem) found.push(problem);
    }
  }
  return found;
}

/** The TypeScript sources of the Worker under `root`, keyed by repository-relative path. */
export function readWorkerSources(root: string): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(path.join(root, dir))) {
      const file = `${dir}/${name}`;
      if (statSync(path.join(root, file)).isDirectory()) walk(file);
      else if (file.endsWith(".ts")) sources.set(file, readFileSync(path.join(root, file), "utf8"));
    }
  };
  for (const dir of ROOTS) walk(dir);
  return sources;
}
