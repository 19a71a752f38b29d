// The suite names the x-assumptions it confirms by place in the bundle; when a spec moves one, this fails rather than
// letting the assumptions report quietly show it as "not exercised".
import { describe, expect, it } from 'vitest';
import { allAssumptions } from '../../scripts/assumptions.ts';
import { ASSUMPTIONS } from '../support/assumptions.ts';

describe('assumption references of the suite', () => {
  it.for(Object.entries(ASSUMPTIONS))('%s names exactly one x-assumption of the bundles', ([, ref]) => {
    const matches = allAssumptions().filter((a) => a.api === ref.api && a.pointer === ref.pointer && a.what.includes(ref.match));
    expect(matches.length, `${ref.api}#${ref.pointer} "${ref.match}"`).toBe(1);
  });
});
