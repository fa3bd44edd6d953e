import { DATE_SORT_OPTIONS } from '@obol/contract';
import { FIRST_PAGE } from './paging.ts';
import type { UrlParams } from './urlState.ts';

type Named<K extends string> = { value: string | number; label: string } & { readonly [k in K]: string };

/**
 * A dropdown of a list's header kept in the URL by its option's name (`status=Completed`, `type=CardEye`): the
 * option named '' (All) is the URL without the parameter, and so is a name that is not an option's. `select` is
 * its OptionSelect's value, options and change (which goes back to page 1).
 */
export function urlOption<O extends Named<K>, K extends string>(
  url: UrlParams,
  param: string,
  options: readonly O[],
  nameKey: K,
) {
  const raw = url.params.get(param) ?? '';
  const chosen = options.find((o) => o[nameKey] === raw) ?? options.find((o) => o[nameKey] === '') ?? options[0];
  return {
    chosen,
    name: chosen[nameKey],
    select: {
      value: chosen.value as O['value'],
      options,
      onChange: (v: O['value']) =>
        url.update({ [param]: options.find((o) => o.value === v)?.[nameKey] || null, ...FIRST_PAGE }),
    },
  };
}

/** The date sort of a list in the URL: `sort=oldest`, absent for newest first. */
const DATE_SORTS = DATE_SORT_OPTIONS.map((o) => ({ ...o, name: o.sort === 'ASC' ? 'oldest' : '' }));

/** A list's date sort from the URL: `sort` is what the API takes ('ASC' or 'DESC'), `select` its OptionSelect's. */
export function dateSort(url: UrlParams) {
  const { chosen, select } = urlOption(url, 'sort', DATE_SORTS, 'name');
  return { sort: chosen.sort, select };
}
