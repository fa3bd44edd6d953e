import { z } from 'zod';

/** The largest id of a 32-bit serial column. */
export const INT4_MAX = 2_147_483_647;

/**
 * A whole number sent as JSON or as form data: a number, or a string of digits. Booleans, arrays, null and
 * '' are refused (z.coerce would read them as 1, 0 or the first element), and so is anything out of range,
 * so a bad page or id is a 400 naming the field, never a surprise page or a database error.
 */
export function wholeNumber(name: string, min: number, max: number) {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+$/, `${name} must be a number`),
      ],
      { error: `${name} must be a number` },
    )
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `${name} must be at least ${min}`, abort: true })
        .max(max, { error: `${name} must be at most ${max}`, abort: true })
        .int(`${name} must be a whole number`),
    );
}

/** per_page and page of a paged list. */
export const perPageField = (max = 100, def = 10) => wholeNumber('per_page', 1, max).default(def);
export const pageField = () => wholeNumber('page', 1, 1_000_000).default(1);
