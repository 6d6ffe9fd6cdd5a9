// Checks recorded command lines against the installed wrangler's own command registry: the
// command exists, every flag is one of its options (or a global flag) and every required
// option and positional is given. The fake answers commands; this keeps them real ones.

interface ArgDefinition {
  alias?: string | string[];
  demandOption?: boolean;
  type?: string;
}
interface CommandNode {
  definition?: { type: string; args?: Record<string, ArgDefinition>; positionalArgs?: string[] };
  subtree: Map<string, CommandNode>;
}

const names = (name: string, def: ArgDefinition) => [
  name,
  ...(Array.isArray(def.alias) ? def.alias : def.alias ? [def.alias] : []),
];

/** One line per recorded command wrangler would not accept as written. */
export async function wranglerCommandProblems(commands: string[][]): Promise<string[]> {
  const wrangler = (await import("wrangler")) as unknown as {
    experimental_getWranglerCommands(): {
      registry: CommandNode;
      globalFlags: Record<string, ArgDefinition>;
    };
  };
  const { registry, globalFlags } = wrangler.experimental_getWranglerCommands();
  const problems: string[] = [];
  for (const argv of commands) {
    let node = registry;
    let depth = 0;
    while (argv[depth] !== undefined && node.subtree.has(argv[depth] as string)) {
      node = node.subtree.get(argv[depth] as string) as CommandNode;
      depth++;
    }
    const line = argv.join(" ");
    const definition = node.definition;
    if (definition?.type !== "command") {
      problems.push(`not a wrangler command: ${line}`);
      continue;
    }
    const args = { ...globalFlags, ...definition.args };
    const known = new Map<string, [string, ArgDefinition]>();
    for (const [name, def] of Object.entries(args))
      for (const alias of names(name, def)) known.set(alias, [name, def]);
    const given = new Set<string>();
    const positionals: string[] = [];
    for (let i = depth; i < argv.length; i++) {
      const word = argv[i] as string;
      if (!word.startsWith("-")) {
        positionals.push(word);
        continue;
      }
      const entry = known.get(word.replace(/^--?/, "").replace(/=.*$/, ""));
      if (!entry) {
        problems.push(`unknown flag ${word} in: ${line}`);
        continue;
      }
      given.add(entry[0]);
      if (entry[1].type !== "boolean" && !word.includes("=")) i++;
    }
    const positional = definition.positionalArgs ?? [];
    if (positionals.length > positional.length) problems.push(`too many positionals in: ${line}`);
    positional.forEach((name, i) => {
      if (positionals[i] !== undefined) given.add(name);
    });
    for (const [name, def] of Object.entries(definition.args ?? {}))
      if (def.demandOption && !given.has(name)) problems.push(`missing --${name} in: ${line}`);
  }
  return problems;
}
