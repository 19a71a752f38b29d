// The command line of every script: one way to read options, answer --help, refuse a bad option in one line, tell a
// busy port apart from a crash, and know whether a file runs as the main module.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export type CliOption = {
  type: 'string' | 'boolean';
  /** One line for --help. */
  description: string;
  /** Shown in --help as the value's name (strings only), e.g. `N` for `--port N`. */
  value?: string;
  short?: string;
  multiple?: boolean;
  default?: string | boolean;
};

export type CliSpec<O extends Record<string, CliOption>> = {
  /** How the user runs it, e.g. `npm run mock --`. */
  command: string;
  /** What it does, one or two sentences. */
  summary: string;
  options: O;
  /** Names positional arguments in the usage line, e.g. `[old.yaml new.yaml]`; without it, positionals are refused. */
  positionals?: string;
  /** Lines printed after the options, e.g. environment variables or examples. */
  notes?: readonly string[];
};

type Values<O extends Record<string, CliOption>> = {
  [K in keyof O]: O[K]['type'] extends 'boolean'
    ? O[K]['multiple'] extends true
      ? boolean[]
      : boolean | undefined
    : O[K]['multiple'] extends true
      ? string[] | undefined
      : string | undefined;
};

export function usage<O extends Record<string, CliOption>>(spec: CliSpec<O>): string {
  const rows = Object.entries(spec.options).map(([name, option]) => {
    const flag = `${option.short ? `-${option.short}, ` : '    '}--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}`;
    const fallback = option.default === undefined || option.default === false ? '' : ` (default: ${String(option.default)})`;
    return [flag, `${option.description}${fallback}`] as const;
  });
  rows.push(['-h, --help', 'Print this help and exit.']);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    `usage: ${spec.command} [options]${spec.positionals ? ` ${spec.positionals}` : ''}`,
    '',
    spec.summary,
    '',
    'options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    ...(spec.notes?.length ? ['', ...spec.notes] : []),
  ].join('\n');
}

/** The --port and --host options of a server script (the mock, the sandbox), the same words in each --help. */
export function listenOptions(portVariable: string, defaultPort: number) {
  return {
    port: { type: 'string', value: 'N', description: `Port to listen on; 0 picks a free one. Default: ${portVariable} or ${defaultPort}.` },
    host: { type: 'string', value: 'HOST', description: 'Address to listen on.', default: '127.0.0.1' },
  } as const;
}

/** The exit code a script uses for a usage error (bad option, bad value), as the shell's own builtins do. */
export const USAGE_EXIT_CODE = 2;

/** Prints `<name>: <message>` and the usage line to stderr, then exits with 2. */
export function usageError(spec: Pick<CliSpec<Record<string, CliOption>>, 'command'>, message: string): never {
  process.stderr.write(`${spec.command}: ${message}\nRun \`${spec.command} --help\` for the options.\n`);
  process.exit(USAGE_EXIT_CODE);
}

/**
 * Reads the command line by `spec` (node:util parseArgs, strict). `--help` prints the usage to stdout and exits 0; an
 * unknown option or a missing value prints one line naming it and exits 2.
 */
export function parseCommandLine<O extends Record<string, CliOption>>(
  spec: CliSpec<O>,
  args: string[] = process.argv.slice(2),
): { values: Values<O>; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([name, { type, short, multiple, default: fallback }]) => [
      name,
      { type, ...(short ? { short } : {}), ...(multiple ? { multiple } : {}), ...(fallback === undefined ? {} : { default: fallback }) },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: Boolean(spec.positionals),
      strict: true,
    });
  } catch (error) {
    usageError(spec, ((error as Error).message.split('\n')[0] ?? '').replace(/\.\s*To specify a positional argument.*$/, '.'));
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage(spec)}\n`);
    process.exit(0);
  }
  const { help: _help, ...values } = parsed.values;
  return { values: values as Values<O>, positionals: parsed.positionals };
}

/** Reads an integer option (or its fallback), refusing anything else with a message that names the option. */
export function integerOption(
  spec: Pick<CliSpec<Record<string, CliOption>>, 'command'>,
  name: string,
  raw: string,
  min: number,
  max: number,
): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    usageError(spec, `--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** True when the module whose `import.meta.url` is given is the script node was started with (not an import). */
export function isMainModule(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && fileURLToPath(moduleUrl) === resolve(entry);
}

/**
 * One line for a server that could not listen: a busy port says so and how to choose another, anything else names the
 * address. Meant for `server.on('error')` and the like; never a stack trace.
 */
export function listenFailure(what: string, host: string, port: number, error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRINUSE')
    return `${what}: port ${port} on ${host} is already in use. Stop the other process, or pass --port N (--port 0 picks a free port).`;
  if (error.code === 'EACCES')
    return `${what}: not allowed to listen on port ${port} on ${host}. Pass --port N with N above 1023 (--port 0 picks a free port).`;
  if (error.code === 'EADDRNOTAVAIL') return `${what}: ${host} is not an address of this machine. Pass --host 127.0.0.1.`;
  return `${what}: could not listen on ${host}:${port} (${error.code ?? error.message}).`;
}
