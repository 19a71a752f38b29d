// The page's markup: a template tag that escapes every value unless it is markup made with it, and text made visible
// (control characters as their pictures, direction overrides named). report.html's views build with it.
/** Markup this module made: the template tag passes it through, and escapes everything else. */
export class Html {
  constructor(readonly text: string) {}
}

export type Part = Html | string | number | undefined | null | false | Part[];

/** Control characters shown as their Unicode pictures, direction overrides named: nothing in a text hides or reorders it. */
function visible(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if ((code < 0x20 && char !== '\n' && char !== '\t') || code === 0x7f)
      out += String.fromCodePoint(code === 0x7f ? 0x2421 : 0x2400 + code);
    else if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0x200e || code === 0x200f)
      out += `<U+${code.toString(16).toUpperCase()}>`;
    else out += char;
  }
  return out;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value. */
export function escapeHtml(text: string): string {
  return visible(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function render(part: Part): string {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === undefined || part === null || part === false) return '';
  return escapeHtml(String(part));
}

/** The template tag: every value is escaped, unless it is Html. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1]!;
  });
  return new Html(out);
}
