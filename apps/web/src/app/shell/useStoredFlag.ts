import { useCallback, useState } from 'react';

/** A yes/no preference kept in localStorage (the sidebar's rail, for one). */
export function useStoredFlag(key: string, initial = false): [boolean, (v: boolean) => void] {
  const [value, setValue] = useState(() => {
    try {
      const v = localStorage.getItem(key);
      return v === null ? initial : v === '1';
    } catch {
      return initial;
    }
  });
  const set = useCallback(
    (v: boolean) => {
      setValue(v);
      try {
        localStorage.setItem(key, v ? '1' : '0');
      } catch {
        /* storage full or blocked: the choice lasts this visit */
      }
    },
    [key],
  );
  return [value, set];
}
