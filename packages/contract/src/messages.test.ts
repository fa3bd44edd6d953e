import { describe, expect, it } from 'vitest';
import { durationInWords, tryAgainIn } from './messages.ts';

describe('when to retry, in words', () => {
  it.each([
    [0, '1 second'],
    [1, '1 second'],
    [1.2, '2 seconds'],
    [59, '59 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [900, '15 minutes'],
  ])('%s s is %s', (seconds, words) => expect(durationInWords(seconds)).toBe(words));

  it('names what was too many', () => {
    expect(tryAgainIn(45)).toBe('Too many attempts. Please try again in 45 seconds.');
    expect(tryAgainIn(240, 'uploads')).toBe('Too many uploads. Please try again in 4 minutes.');
  });
});
