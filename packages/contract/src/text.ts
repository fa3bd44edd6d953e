import { z } from 'zod';

/**
 * The input rule for text (docs/decisions/003-input.md): no control characters but tab, line feed and carriage
 * return (U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, U+007F, U+0080-U+009F), and no UTF-16 surrogate
 * without its pair. Such text cannot be stored (PostgreSQL refuses U+0000 in text and unpaired surrogates
 * in jsonb), encoded (encodeURIComponent throws on a lone surrogate) or shown safely, so it is refused
 * at the door, with the field named, on every route.
 */
// eslint-disable-next-line no-control-regex -- these control characters are what the rule is about
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** with the u flag a paired surrogate is one code point, so only a lone one is a Cs character */
const LONE_SURROGATE = /\p{Cs}/u;

export const TEXT_MSG = {
  /** the server's answer, with the field named */
  notAllowed: (field: string) => `${field} contains characters that are not allowed`,
  /** a form's message under the field */
  notAllowedHere: 'Contains characters that are not allowed',
  fieldName: 'A field name contains characters that are not allowed',
} as const;

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a text may not be accepted ('control character U+0000', 'unpaired surrogate U+D800'), or null when it may. */
export function unsafeTextIssue(value: string): string | null {
  const control = CONTROL.exec(value);
  if (control) return `control character ${hex(control[0].charCodeAt(0))}`;
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate) return `unpaired surrogate ${hex(surrogate[0].charCodeAt(0))}`;
  return null;
}

export const isSafeText = (value: string): boolean => unsafeTextIssue(value) === null;

/**
 * The name variant of the rule: a name (of a person, merchant, brand, company, rule, passkey, file or beneficiary)
 * is shown beside other text in lists, files and mail subjects, where an explicit direction override or isolate
 * (U+202A-U+202E, U+2066-U+2069) would reorder what follows it: 'Invoice\u202Efdp.exe' shows as 'Invoiceexe.pdf'.
 * They are refused there too. The plain marks U+200E, U+200F and U+061C stay allowed: they only set the direction
 * of neutral characters beside them, and right-to-left keyboards type them in ordinary names.
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/** The fields the name variant applies to, by their key: `name` and every `..._name`. */
export const NAME_FIELD = /(?:^|_)name$/i;

/** Why a name may not be accepted (the text rule's reasons, or 'bidirectional control U+202E'), or null. */
export function unsafeNameIssue(value: string): string | null {
  const text = unsafeTextIssue(value);
  if (text) return text;
  const bidi = BIDI_CONTROL.exec(value);
  return bidi ? `bidirectional control ${hex(bidi[0].charCodeAt(0))}` : null;
}

export const isSafeName = (value: string): boolean => unsafeNameIssue(value) === null;

/** A text field of a form: a string that holds no control character and no unpaired surrogate. */
export const safeText = (message: string = TEXT_MSG.notAllowedHere) =>
  z.string({ error: 'Must be text' }).refine(isSafeText, message);

const MAX_PATH = 10;

interface UnsafeText {
  /** the field, as fromZod names it: keys joined with '.' ('id.2'); '_' for the input itself */
  field: string;
  message: string;
  /** what was found, for the log */
  issue: string;
}

/**
 * Every text of a parsed JSON body, query string or route parameters that breaks the rule: string values at
 * any depth of objects and arrays (the name variant for a field named `name` or `..._name`), and the keys of
 * objects. Walks with a stack of its own, so no nesting can
 * overflow the call stack, and stops after `limit` findings.
 */
export function findUnsafeText(input: unknown, limit = 20): UnsafeText[] {
  interface Node {
    value: unknown;
    key: string | null;
    parent: Node | null;
  }
  // the path is kept as a link to the parent, and spelled out only for a finding: copying it at every level
  // would cost the square of the depth
  const fieldOf = (node: Node | null) => {
    const keys: string[] = [];
    for (let n = node; n && n.key !== null; n = n.parent) keys.push(n.key);
    keys.reverse();
    // a field deep in nested arrays is named by its first levels
    return keys.length > MAX_PATH ? `${keys.slice(0, MAX_PATH).join('.')}...` : keys.join('.') || '_';
  };
  // a value under a name field, or in an array of them, is a name
  const isName = (node: Node) => {
    let n: Node | null = node;
    while (n && n.key !== null && /^\d+$/.test(n.key) && Array.isArray(n.parent?.value)) n = n.parent;
    return !!n?.key && NAME_FIELD.test(n.key);
  };
  const found: UnsafeText[] = [];
  const stack: Node[] = [{ value: input, key: null, parent: null }];
  while (stack.length && found.length < limit) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      const issue = isName(node) ? unsafeNameIssue(value) : unsafeTextIssue(value);
      if (issue) {
        const field = fieldOf(node);
        found.push({ field, message: TEXT_MSG.notAllowed(field === '_' ? 'The input' : field), issue });
      }
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: String(i), parent: node });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const issue = unsafeTextIssue(keys[i]);
        // the key itself is not echoed: it is the unsafe text
        if (issue) found.push({ field: fieldOf(node), message: TEXT_MSG.fieldName, issue });
        else stack.push({ value: (value as Record<string, unknown>)[keys[i]], key: keys[i], parent: node });
      }
    }
  }
  return found.slice(0, limit);
}
