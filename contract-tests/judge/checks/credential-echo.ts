// Security: no answer shows a credential the run holds, or a part of one, in any encoding: the configured secrets
// (LP_CLIENT_SECRET, LP_SUBSCRIPTION_KEY, LP_FLEET_API_KEY) and the latest tokens the target issued, in the headers or
// the body, as they are, percent-encoded, JSON-escaped, in base64 or base64url, in hex or as HTML entities. A part is any
// run of three quarters of the credential's characters (every such run holds one of its halves that start at a
// quarter, which is what is looked for: at least 12 characters each, so that words a secret shares with an error
// message are not taken for it; a credential shorter than 16 is looked for whole). A token endpoint's answer that
// issues a token is not an echo of that token.
import { specRoles } from '../../model/operations.ts';
import type { Exchange } from '../../send/fetch.ts';
import { AnswerMemo } from '../answer-memo.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { operationIdOf, statusClassOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';

const MIN_PART = 12;
/** Tokens looked for: the latest the run was issued (the ones a client still holds). */
const LATEST_TOKENS = 20;
const TOKEN = 'an access token the run was issued';

/** Every reading of a text a client might decode: as it is, percent-decoded, JSON strings, base64, hex, HTML entities. */
export function decodings(text: string): string[] {
  const readings = [text];
  // A text without the characters an encoding starts with reads the same decoded: most answers have none of them.
  if (!/[%+]/.test(text)) readings.push(text);
  else
    try {
      readings.push(decodeURIComponent(text.replace(/\+/g, ' ')));
    } catch {
      readings.push(text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))));
    }
  readings.push(
    text.includes('\\')
      ? text.replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))).replace(/\\(.)/g, '$1')
      : text,
  );
  readings.push(
    text.includes('&#')
      ? text
          .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
          .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
      : text,
  );
  const base64 = (text.match(/[A-Za-z0-9+/_-]{12,}={0,2}/g) ?? []).map((run) =>
    Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'),
  );
  const hex = (text.match(/(?:[0-9a-f]{2}){8,}/gi) ?? []).map((run) => Buffer.from(run, 'hex').toString('latin1'));
  readings.push([...base64, ...hex].join('\n'));
  return readings;
}

/** The parts of a credential looked for: its halves starting at every quarter (at least 12 characters each, the last
 * flush with its end), or the whole of a short one. Any run of three quarters of the credential holds one of them. */
export function partsOf(value: string): string[] {
  if (value.length < 16) return [value];
  const size = Math.min(value.length, Math.max(MIN_PART, Math.ceil(value.length / 2)));
  const stride = Math.max(1, Math.floor(value.length / 4));
  const parts = new Set<string>();
  for (let start = 0; start + size <= value.length; start += stride) parts.add(value.slice(start, start + size));
  parts.add(value.slice(value.length - size));
  return [...parts];
}

/** The parts of the credentials held, each credential's once (the same ones are looked for in every answer). */
const heldParts = new Map<string, string[]>();
const MAX_HELD_PARTS = 1_000;
function partsOfHeld(value: string): string[] {
  let parts = heldParts.get(value);
  if (!parts) {
    parts = partsOf(value);
    if (heldParts.size >= MAX_HELD_PARTS) heldParts.delete(heldParts.keys().next().value!);
    heldParts.set(value, parts);
  }
  return parts;
}

function headerText(seen: Exchange): string {
  const headers = [...seen.response.headers].filter(([name]) => name !== 'set-cookie').map(([name, value]) => `${name}: ${value}`);
  return headers.join('\n');
}

/** Whether one of the parts of `value` is in one of `readings`. */
const showsIn = (readings: readonly string[], value: string): boolean =>
  partsOfHeld(value).some((part) => readings.some((text) => text.includes(part)));

/** What a body shows: its readings, and for each credential looked for in it so far, whether one of its parts is in
 * them (the same credentials are looked for in every answer, and answers repeat). */
interface BodyReading {
  readings: string[];
  shows: AnswerMemo<boolean>;
}

/** Each body's reading, worked out once: answers repeat (judge/answer-memo.ts). */
const bodyReadings = new AnswerMemo<BodyReading>();

const bodyShows = (body: BodyReading, value: string): boolean => body.shows.of(value, () => showsIn(body.readings, value));

/** The distinct readings of a text (a text without escapes reads the same percent-decoded, and is looked in once). */
const readingsOf = (text: string): string[] => [...new Set(decodings(text))];

export const credentialEcho: ExchangeCheck = {
  id: 'no-credential-echo',
  promise: PROMISES.noEcho,
  source: { security: 'no credential echoed' },
  clauses: ['security-no-credential-echo'],
  operations: '*',
  statuses: 'any',
  judge(seen, context) {
    const issuing = specRoles().tokenEndpoints.includes(operationIdOf(seen) ?? '') && statusClassOf(seen) === 2;
    const held = [
      ...context.secrets().filter((s) => s.value.length >= 4),
      ...(issuing ? [] : [...context.tokens.keys()].slice(-LATEST_TOKENS).map((value) => ({ name: TOKEN, value }))),
    ];
    if (!held.length) return [];
    // The headers and the body are read apart (no credential holds a line break).
    const headers = readingsOf(headerText(seen));
    const body = bodyReadings.of(seen.bodyText, () => ({ readings: readingsOf(seen.bodyText), shows: new AnswerMemo<boolean>() }));
    const shown = held.filter(({ value }) => showsIn(headers, value) || bodyShows(body, value));
    return shown.map(({ name }) =>
      violation(
        credentialEcho,
        `${operationIdOf(seen) ?? seen.request.method} answered ${seen.response.status} showing ${name === TOKEN ? name : `the value of ${name}`}, or a part of it`,
      ),
    );
  },
};
