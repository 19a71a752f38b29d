// What the judge knows of the run when it judges an exchange: the tokens and codes the target issued (when, for how
// long, for which redirect URI, whether a code was redeemed), the credentials configured, the key's own fleet, how far
// the target's clock was moved. Learned from the exchanges themselves, after each was judged, so that an exchange is
// judged by what came before it. Each store is bounded.
import { specRoles } from '../model/operations.ts';
import { vehicleListOf } from '../model/vehicle-list.ts';
import { type Capability, capabilityOf } from '../send/capabilities.ts';
import type { Exchange } from '../send/fetch.ts';
import { type OwnFleet, ownFleet } from '../send/own-fleet.ts';
import { perRun } from '../send/per-run.ts';
import { SECRET_VARIABLES, type Target } from '../send/target.ts';
import { clockAdvanceSeconds } from '../send/target-clock.ts';
import { answerJson, answerObject, formOf, locationOf, operationIdOf, queryOf, statusClassOf, valuesOf } from './exchange-facts.ts';

/** The seed's lifetime of an access token (2.3, 5.2, 8): one hour. */
export const TOKEN_LIFETIME_SECONDS = 3600;
/** Tokens and codes remembered at most per worker; the oldest go first. */
const MAX_REMEMBERED = 10_000;

export interface IssuedToken {
  /** Local time it was received, ms since the epoch. */
  receivedAt: number;
  /** What its answer declared (expired_in or expires_in), bounded by the seed's hour. */
  lifetimeSeconds: number;
  operationId: string;
}

export interface IssuedCode {
  receivedAt: number;
  /** The authorize request's redirect_uri and client_id (undefined when it sent none). */
  redirectUri: string | undefined;
  clientId: string | undefined;
  redeemed: boolean;
}

function bounded<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.set(key, value);
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value as K);
}

export class RunContext {
  /** Vehicles as the lists answered them, by vehicle number. */
  readonly listed = new Map<string, Record<string, unknown>>();
  readonly tokens = new Map<string, IssuedToken>();
  readonly codes = new Map<string, IssuedCode>();
  readonly capability: Capability;
  readonly env: Target['env'];
  private readonly fleet: () => Promise<OwnFleet>;

  /** The context of a run's target (runContext); a self-test gives its own capability, settings and fleet. */
  constructor(given: { capability: Capability; env: Target['env']; ownFleet: () => Promise<OwnFleet> }) {
    this.capability = given.capability;
    this.env = given.env;
    this.fleet = given.ownFleet;
  }

  /** The secrets configured for this run (their values, with the variable that holds each); read once, as the settings. */
  secrets(): Array<{ name: string; value: string }> {
    this.#secrets ??= SECRET_VARIABLES.flatMap((name) => (this.env[name] ? [{ name, value: this.env[name]! }] : []));
    return this.#secrets;
  }
  #secrets: Array<{ name: string; value: string }> | undefined;

  /** How old a token is on the target's clock, in seconds: the time since it came, plus any clock moved ahead. */
  ageSeconds(token: IssuedToken, now = Date.now()): number {
    return (now - token.receivedAt) / 1000 + clockAdvanceSeconds();
  }

  /** The key's own fleet (its unfiltered list), asked once. */
  ownFleet(): Promise<OwnFleet> {
    return this.fleet();
  }

  /** Learns what an exchange issued or used up: a token, a code, a redeemed code. */
  learn(seen: Exchange): void {
    const operationId = operationIdOf(seen);
    const tokenEndpoint = operationId !== undefined && specRoles().tokenEndpoints.includes(operationId);
    if (tokenEndpoint && statusClassOf(seen) === 2) {
      this.learnToken(seen, operationId);
      for (const code of valuesOf(formOf(seen), 'code')) {
        const known = this.codes.get(code);
        if (known) known.redeemed = true;
      }
    }
    if (operationId !== undefined && specRoles().authorization.includes(operationId)) this.learnCode(seen);
    if (operationId !== undefined && specRoles().listsVehicles.includes(operationId) && statusClassOf(seen) === 2)
      for (const vehicle of vehicleListOf<Record<string, unknown>>(answerJson(seen)).vehicles ?? [])
        if (typeof vehicle?.vehicleNumber === 'string') bounded(this.listed, vehicle.vehicleNumber, vehicle);
  }

  private learnToken(seen: Exchange, operationId: string): void {
    const body = answerObject(seen);
    const token = body?.access_token;
    if (typeof token !== 'string' || token === '') return;
    const declared = Number(body?.expired_in ?? body?.expires_in);
    const lifetimeSeconds = Number.isFinite(declared) && declared > 0 ? Math.min(declared, TOKEN_LIFETIME_SECONDS) : TOKEN_LIFETIME_SECONDS;
    bounded(this.tokens, token, { receivedAt: seen.answeredAt, lifetimeSeconds, operationId });
  }

  private learnCode(seen: Exchange): void {
    const location = locationOf(seen);
    const code = location?.searchParams.get('code');
    if (!code) return;
    const query = queryOf(seen);
    bounded(this.codes, code, {
      receivedAt: seen.answeredAt,
      redirectUri: valuesOf(query, 'redirect_uri')[0],
      clientId: valuesOf(query, 'client_id')[0],
      redeemed: false,
    });
  }
}

/** The context of a run (one per worker). */
export const runContext = perRun(
  (run) => new RunContext({ capability: capabilityOf(run.target.name), env: run.target.env, ownFleet: () => ownFleet(run) }),
);
