import { describe, expect, it } from 'vitest';
import { linesText } from '../../lib/lines';

// Line changes show only what was sent: a plugin that sends net additions never records a
// deletion, and "3611 / 0" read as if one had been counted.

describe('linesText', () => {
  it('names only the changes recorded', () => {
    expect(linesText(3611, 0)).toBe('3,611 added');
    expect(linesText(0, 12)).toBe('12 deleted');
    expect(linesText(3611, 12)).toBe('3,611 added, 12 deleted');
    expect(linesText(0, 0)).toBe('none');
  });
});
