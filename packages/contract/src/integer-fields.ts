import type { z } from 'zod';
import type { Operation } from './operation.ts';

// For tests (the contract's and the server's fuzz test): where the id and integer rule (params.ts) must hold.

/** The fields of a schema's object, under any wrapper (a transform, optional, default). */
export function fieldsOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  type Def = { type?: string; shape?: Record<string, z.ZodType>; in?: unknown; innerType?: unknown };
  let s = schema as { def?: Def } | undefined;
  for (let i = 0; s && i < 10; i++) {
    if (s.def?.type === 'object' && s.def.shape) return s.def.shape;
    s = (s.def?.in ?? s.def?.innerType) as typeof s;
  }
  return {};
}

/**
 * The whole number a field takes, as text (and as a number, unless it is a form field, text only), when it is an
 * id or integer field: one that takes neither other text nor a fraction. Found by what the field takes rather than
 * by how it is written, so a field made with z.coerce or a parser of its own is found too. Undefined for any other
 * field.
 */
export function integerSample(schema: z.ZodType): number | undefined {
  const takes = (v: unknown) => schema.safeParse(v).success;
  const n = [7, 12].find((x) => takes(String(x)));
  return n !== undefined && !takes('x') && !takes(`${n}.5`) ? n : undefined;
}

/** A schema under its wrappers (transform, optional, default, pipe input): the object, array or value it is. */
function unwrap(schema: z.ZodType): { def?: { type?: string; element?: z.ZodType } } {
  type Def = { type?: string; in?: unknown; innerType?: unknown; element?: z.ZodType };
  let s = schema as { def?: Def };
  for (let i = 0; s?.def && i < 10 && s.def.type !== 'object' && s.def.type !== 'array'; i++) {
    const next = (s.def.in ?? s.def.innerType) as typeof s | undefined;
    if (!next) break;
    s = next;
  }
  return s;
}

/**
 * The id and integer fields inside a schema's arrays and nested objects (not its top-level fields, which
 * integerFields finds), as paths: ['id', 0] is an element of the array `id`, ['users', 0, 'parent_id'] a field
 * of an element of `users`.
 */
export function nestedIntegerFields(schema: z.ZodType | undefined): { path: (string | number)[]; n: number }[] {
  const out: { path: (string | number)[]; n: number }[] = [];
  const walk = (s: z.ZodType, path: (string | number)[], top: boolean) => {
    if (!top) {
      const n = integerSample(s);
      if (n !== undefined) {
        out.push({ path, n });
        return;
      }
    }
    const u = unwrap(s);
    if (u.def?.type === 'array' && u.def.element) walk(u.def.element, [...path, 0], false);
    else if (u.def?.type === 'object' && path.length < 6)
      for (const [k, f] of Object.entries(fieldsOf(s))) walk(f, [...path, k], top && path.length === 0 ? true : false);
  };
  if (schema) for (const [k, f] of Object.entries(fieldsOf(schema))) walk(f, [k], true);
  return out;
}

/** Every id and integer field of the operations' inputs and path parameters. */
export function integerFields(operations: readonly Operation[]) {
  return operations.flatMap((op) =>
    Object.entries({ ...fieldsOf(op.input), ...fieldsOf(op.params) }).flatMap(([field, schema]) => {
      const n = integerSample(schema);
      return n === undefined ? [] : [{ op: op.path, field, schema, n }];
    }),
  );
}

/** What an id or integer field that takes `n` must refuse: booleans, arrays, padded, zero-led and signed text. */
export const notWholeNumbers = (n: number): unknown[] => [
  true,
  false,
  [],
  [n],
  ` ${n}`,
  `${n} `,
  `0${n}`,
  `+${n}`,
  `${n}.0`,
  `${n}e0`,
  {},
  // more padding and other spellings Number() would read as the same number
  `  ${n}`,
  `\t${n}`,
  `${n}\n`,
  `00${n}`,
  `0x${n}`,
];
