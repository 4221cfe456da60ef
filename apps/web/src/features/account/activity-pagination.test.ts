import { describe, expect, it } from 'vitest';

import { pageWindow } from './activity-pagination.ts';

describe('pageWindow', () => {
  it.each([
    // current, total pages, buttons
    [1, 0, []],
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [2, 3, [1, 2, 3]],
    [3, 3, [1, 2, 3]],
    [1, 5, [1, 2, 3, 4, 5]],
    [5, 5, [1, 2, 3, 4, 5]],
    [1, 10, [1, 2, 3, 4, 5]],
    [2, 10, [1, 2, 3, 4, 5]],
    [3, 10, [1, 2, 3, 4, 5]],
    [4, 10, [2, 3, 4, 5, 6]],
    [7, 10, [5, 6, 7, 8, 9]],
    [8, 10, [6, 7, 8, 9, 10]],
    [9, 10, [6, 7, 8, 9, 10]],
    [10, 10, [6, 7, 8, 9, 10]],
    [5000, 5001, [4997, 4998, 4999, 5000, 5001]],
    // out of range: the nearest page is centred
    [0, 10, [1, 2, 3, 4, 5]],
    [12, 10, [6, 7, 8, 9, 10]],
  ])('page %i of %i shows %j', (current, total, expected) => {
    expect(pageWindow(current, total)).toEqual(expected);
  });

  it.each([
    [4, 10, 3, [3, 4, 5]],
    [4, 10, 4, [2, 3, 4, 5]],
    [1, 10, 1, [1]],
    [4, 10, 0, []],
  ])('page %i of %i with %i buttons shows %j', (current, total, size, expected) => {
    expect(pageWindow(current, total, size)).toEqual(expected);
  });
});
