// The vitest options a partner gives after `--` are checked against vitest's own: a mistyped one is named, not dropped.
import { describe, expect, it } from 'vitest';
import { unknownVitestOptions } from '../runner/vitest-options.ts';

describe('vitest options given after --', () => {
  it('names the options vitest does not know, and passes the ones it does in any spelling', () => {
    expect(
      unknownVitestOptions([
        '--testNamePatern',
        'token',
        '-t',
        'token',
        '--tags-filter=rfc6749-5.2',
        '--tagsFilter',
        'x',
        '--no-color',
        '--sequence.shuffle',
        '--exclude',
        'contract-tests/self/**',
        '-zq',
        '--bogus.x',
      ]),
    ).toEqual(['--testNamePatern', '-zq', '--bogus.x']);
  });

  it('asks nothing of vitest when only file filters are given', () => {
    expect(unknownVitestOptions(['contract-tests/fleet', '--'])).toEqual([]);
  });
});
