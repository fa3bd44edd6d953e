import { useEffect } from 'react';
import { MAIN_ID } from '../../ui/SkipLink.tsx';

/** What a list marks as its search field. */
export const SEARCH_SELECTOR = '[data-search-input], [role="searchbox"]';

const typingIn = (el: EventTarget | null) =>
  el instanceof HTMLElement &&
  (el.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) ||
    el.getAttribute('role') === 'combobox');

/** The page's search field: the first marked element in the main area, or the input inside it. */
export function findSearchField(root: ParentNode = document): HTMLElement | null {
  const main = root.querySelector(`#${MAIN_ID}`) ?? root;
  const marked = main.querySelector<HTMLElement>(SEARCH_SELECTOR);
  if (!marked) return null;
  if (['INPUT', 'TEXTAREA'].includes(marked.tagName)) return marked;
  return marked.querySelector<HTMLElement>('input, textarea') ?? marked;
}

/** `/` outside a field focuses the page's search field, as in most dashboards. */
export function useSlashSearch() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || typingIn(e.target)) return;
      const field = findSearchField();
      if (!field) return;
      e.preventDefault();
      field.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
