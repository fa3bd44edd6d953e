/** One field of a record's before/after, as the details dialog lists it. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
  changed: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value as text: '-' for none, strings as they are, anything else as JSON. */
export function show(v: unknown): string {
  if (v === undefined || v === null || v === '') return '-';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/**
 * The fields of before and after side by side: objects field by field (nested ones named with dots, as
 * 'account.iban'), in the order they first appear; any other value as one field named 'value'. Fields that
 * differ are marked changed.
 */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  if (before == null && after == null) return [];
  const flat = (v: unknown, at = '', out = new Map<string, unknown>()) => {
    if (isObject(v) && Object.keys(v).length) {
      for (const [k, x] of Object.entries(v)) flat(x, at ? `${at}.${k}` : k, out);
    } else if (at) out.set(at, v);
    else if (v != null) out.set('value', v);
    return out;
  };
  const b = flat(before);
  const a = flat(after);
  const fields = [...new Set([...b.keys(), ...a.keys()])];
  return fields.map((field) => {
    const before = show(b.get(field));
    const after = show(a.get(field));
    return { field, before, after, changed: before !== after };
  });
}
