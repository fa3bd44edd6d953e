import type { QueryKey, UseQueryOptions } from '@tanstack/react-query';
import { usePagedList, usePaging, type PageOf, type PagedList } from './paging.ts';
import type { UrlParams } from './urlState.ts';
import { useUrlSearch } from './useUrlSearch.ts';

/**
 * A list paged by number (`perPage` a page, no other size) and searched by one box, both in `url`: `query(page,
 * search)` is the query of the page on screen, `page` picks its rows and total. `matches` says how the search
 * matches, as the server does ("Name or email contains"). What ui/SearchedTable shows.
 */
export function useSearchedList<A, T, K extends QueryKey>(
  url: UrlParams,
  perPage: number,
  matches: string,
  query: (page: number, search: string) => UseQueryOptions<A, Error, A, K>,
  page: (answer: A) => PageOf<T>,
) {
  const paging = usePaging(perPage, [perPage], url);
  const { text, setText, search } = useUrlSearch(url);
  const list = usePagedList(paging, query(paging.page, search), page);
  return { ...list, url, search: { text, setText, matches } };
}

/** What a table of a searched list takes of it. */
export interface SearchedList<T> extends PagedList<T> {
  url: UrlParams;
  search: { text: string; setText: (text: string) => void; matches: string };
}
