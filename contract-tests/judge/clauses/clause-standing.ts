// How a clause reads today. A clause has the strength its source gave it (MUST, SHOULD, MAY), and later texts may have
// changed how it reads: RFC 9110 and 9111 for HTTP, RFC 9700 (the OAuth security BCP) and RFC 9207 for OAuth, and the
// OAuth 2.1 draft where it relaxes RFC 6749. Only a MUST that still stands, and binds the server the suite judges,
// makes a violation; a SHOULD, a MAY, a relaxed MUST or a rule of the client's is a note that cites both texts.

export type Strength = 'MUST' | 'SHOULD' | 'MAY';

export interface ClauseUpdate {
  /** The later text and its section, e.g. "RFC 9111 5.4". */
  by: string;
  /** What it says of the clause, in a few words. */
  says: string;
  /** The clause's strength once this text is read with it. */
  today: Strength;
}

/** Every clause a check of the suite judges: where it comes from, how strong it was written and how it reads today. */
export interface Standing {
  id: string;
  /** Where it comes from: "RFC 6749 5.1", "published documentation 4.2", "RFC 9110 10.2.2", "security property". */
  source: string;
  /** The clause in a few words. */
  text: string;
  /** As its source wrote it (MUST NOT, REQUIRED and SHALL are MUST). */
  strength: Strength;
  /** Later texts that changed how it reads, oldest first; none: they keep it as written. */
  updates?: readonly ClauseUpdate[];
  /** The clause binds the client, not the server the suite judges: a server that accepts what a client must not send
   * breaks no MUST of its own. Says which text binds the client. */
  bindsClient?: string;
  /** Where the published documentation asks more than the RFC: what the RFC alone would allow. */
  rfcAlone?: string;
}

/** The strength the clause has once every later text is read with it. */
export const todayOf = (standing: Standing): Strength => standing.updates?.at(-1)?.today ?? standing.strength;

/** A broken clause is a violation only when it is a MUST that still stands and binds the server. */
export const breaksContract = (standing: Standing): boolean => todayOf(standing) === 'MUST' && !standing.bindsClient;

/** Why a broken clause is a note and not a violation, citing the clause and what changed it. */
export function whyNote(standing: Standing): string {
  if (standing.bindsClient) return `${standing.source} binds the client (${standing.bindsClient}), not the server: a note, not a violation`;
  const changes = (standing.updates ?? []).map((u) => `${u.by} ${u.says}`).join('; ');
  const written = `${standing.source} writes it as a ${standing.strength}`;
  return `${changes ? `${written}, but ${changes}` : written}: it reads as a ${todayOf(standing)} today, so a note, not a violation`;
}

/** The seed's own requirement beyond the RFC, said in the violation: the published documentation is its source. */
export const beyondRfc = (standing: Standing): string | undefined =>
  standing.rfcAlone ? `the published documentation's own requirement; ${standing.rfcAlone}` : undefined;
