// The little of Node the consumer programs use, declared here instead of @types/node: the same declarations in
// `npm run typecheck` (against src/) and in pack:check (against the installed package, which copies this file), and
// neither compile loads Node's types (about half a CPU-second).
declare const process: { env: Record<string, string | undefined>; exitCode?: number | undefined };
declare const require: unknown;
declare const module: unknown;
