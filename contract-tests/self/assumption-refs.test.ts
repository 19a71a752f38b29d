// The suite names the x-assumptions it observes by place in the bundle; when a spec moves one, this fails rather than
// letting the assumptions report quietly show it as "not exercised". And every testable x-assumption is checked by the
// suite: judged on each response through its `covers`, or observed by a named check.
import { describe, expect, it } from 'vitest';
import { allAssumptions } from '../../spec-core/assumptions.ts';
import { ASSUMPTIONS } from '../judge/assumptions.ts';
import { limitProbes } from '../operators/input-limits.ts';
import { specModel } from '../model/model-entries.ts';

describe('assumption references of the suite', () => {
  it.for(Object.entries(ASSUMPTIONS))('%s names exactly one x-assumption of the bundles', ([, ref]) => {
    const matches = allAssumptions().filter((a) => a.api === ref.api && a.pointer === ref.pointer && a.what.includes(ref.match));
    expect(matches.length, `${ref.api}#${ref.pointer} "${ref.match}"`).toBe(1);
  });

  it('every x-assumption a request can probe is covered or observed; the others say why not', () => {
    // The size limits' assumptions are found from the registry, and each probed by property/input-limits.test.ts.
    const probed = limitProbes(specModel()).flatMap((p) =>
      p.parameter ? [{ api: p.assumption.api, pointer: p.assumption.pointer, match: p.assumption.what }] : [],
    );
    const refs = [...Object.values(ASSUMPTIONS), ...probed];
    const unchecked = allAssumptions().filter(
      (a) =>
        !a.untestable &&
        a.covers.length === 0 &&
        !refs.some((ref) => ref.api === a.api && ref.pointer === a.pointer && a.what.includes(ref.match)),
    );
    expect(unchecked.map((a) => `${a.api}#${a.pointer}: ${a.what.slice(0, 60)}`)).toEqual([]);
  });
});
