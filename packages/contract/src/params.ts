import { z } from 'zod';

/** The largest id of a 32-bit serial column. */
export const INT4_MAX = 2_147_483_647;

/**
 * A whole number written as text, as form data and query strings send it: digits with an optional leading '-',
 * nothing around them and no leading zero ('0' alone is zero). ' 1', '1 ', '01', '+1', '-0' and '1e3' are not.
 */
export const WHOLE_NUMBER_TEXT = /^(?:0|-?[1-9]\d*)$/;

/** The messages of one whole-number field, where the spec words them its own way (defaults name the field). */
interface WholeNumberMessages {
  /** not a number at all: a boolean, an array, null, '', padded or zero-led text */
  invalid?: string;
  /** absent, when the field is required (fromZod answers 'This field is required' otherwise) */
  required?: string;
  min?: string;
  max?: string;
  /** a fraction */
  whole?: string;
}

/**
 * The one id and integer rule of every operation (docs/decisions.md, "Input"): a JSON number, or text that is
 * exactly its digits (WHOLE_NUMBER_TEXT), within `min`..`max`. Booleans, arrays, null, '', padded and zero-led
 * text are refused (z.coerce would read them as 1, 0 or the first element, and the column would get a number
 * the caller never wrote), and so is anything out of range, so a bad page or id is a 400 naming the field,
 * never a surprise row or a database error. `messages` as a string words every refusal alike.
 */
export function wholeNumber(name: string, min: number, max: number, messages: WholeNumberMessages | string = {}) {
  const m = messagesOf(name, messages);
  return z
    .union([z.number(), z.string().regex(WHOLE_NUMBER_TEXT, m.invalid)], { error: m.error })
    .transform(Number)
    .pipe(inRange(name, min, max, m));
}

/** The same rule for a form field (multipart/form-data), which is always text. */
export function wholeNumberText(name: string, min: number, max: number, messages: WholeNumberMessages | string = {}) {
  const m = messagesOf(name, messages);
  return z
    .string({ error: m.error })
    .regex(WHOLE_NUMBER_TEXT, m.invalid)
    .transform(Number)
    .pipe(inRange(name, min, max, m));
}

function messagesOf(name: string, messages: WholeNumberMessages | string) {
  const m =
    typeof messages === 'string' ? { invalid: messages, min: messages, max: messages, whole: messages } : messages;
  const invalid = m.invalid ?? `${name} must be a number`;
  return {
    ...m,
    invalid,
    error: (issue: { input?: unknown }) => (issue.input === undefined && m.required ? m.required : invalid),
  };
}

const inRange = (name: string, min: number, max: number, m: WholeNumberMessages) =>
  z
    .number()
    .min(min, { error: m.min ?? `${name} must be at least ${min}`, abort: true })
    .max(max, { error: m.max ?? `${name} must be at most ${max}`, abort: true })
    .int(m.whole ?? `${name} must be a whole number`);

/** per_page and page of a paged list. */
export const perPageField = (max = 100, def = 10) => wholeNumber('per_page', 1, max).default(def);
export const pageField = () => wholeNumber('page', 1, 1_000_000).default(1);
