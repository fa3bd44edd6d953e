import { useEffect, useState } from 'react';

/** The value, once it has stopped changing for `ms` milliseconds (search boxes: 1000 ms). */
export function useDebounced<T>(value: T, ms = 1000): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
