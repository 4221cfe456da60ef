/** Page buttons shown at most (spec part 1 §9). */
export const PAGE_BUTTONS = 5;

/**
 * The page numbers to offer as buttons: up to `size` consecutive pages centred on the current one,
 * shifted to stay within 1..totalPages near either end (spec part 1 §9).
 */
export function pageWindow(current: number, totalPages: number, size = PAGE_BUTTONS): number[] {
  if (totalPages < 1 || size < 1) return [];
  const count = Math.min(size, totalPages);
  const page = Math.min(Math.max(1, Math.trunc(current)), totalPages);
  const start = Math.min(Math.max(1, page - Math.floor(count / 2)), totalPages - count + 1);
  return Array.from({ length: count }, (_, index) => start + index);
}
