// The line of an x-assumption in its spec file: where a reader (or GitHub's `::warning file=…,line=…`) goes to change it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { repoRoot } from '../../spec-core/apis.ts';

/** The 1-based line of a JSON pointer inside a YAML file, or undefined when the pointer or the file is not there. */
export function lineOf(file: string, pointer: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(repoRoot, file), 'utf8');
  } catch {
    return undefined;
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, keepSourceTokens: true });
  let node: unknown = document.contents;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (isMap(node)) node = node.get(key, true);
    else if (isSeq(node)) node = node.get(Number(key), true);
    else return undefined;
    if (node === undefined) return undefined;
  }
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? lineCounter.linePos(range[0]).line : undefined;
}
