import { useEffect, useRef, useState } from 'react';
import { FIRST_PAGE } from './paging.ts';
import type { UrlParams } from './urlState.ts';

/**
 * A search box whose value lives in the URL (`q`): what is typed shows at once, and once it has stopped changing
 * for `ms` (1 s) it replaces the URL's value (no history entry per keystroke) and the list goes back to page 1.
 * Back or a link changes the URL: the box follows. `search` is what the list asks for.
 */
export function useUrlSearch(url: UrlParams, key = 'q', ms = 1000) {
  const search = (url.params.get(key) ?? '').slice(0, 200);
  const [text, setText] = useState(search);
  const [seen, setSeen] = useState(search);
  if (seen !== search) {
    setSeen(search);
    if (text.trim() !== search) setText(search);
  }
  const latest = useRef({ search, update: url.update });
  useEffect(() => {
    latest.current = { search, update: url.update };
  });
  useEffect(() => {
    const t = setTimeout(() => {
      const v = text.trim();
      if (v !== latest.current.search) latest.current.update({ [key]: v, ...FIRST_PAGE }, { replace: true });
    }, ms);
    return () => clearTimeout(t);
  }, [text, key, ms]);
  return { text, setText, search };
}
