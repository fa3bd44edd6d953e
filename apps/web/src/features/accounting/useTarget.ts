import { useState } from 'react';

/**
 * The row a dialog is about, kept while the dialog fades out after closing (its title and text do not change
 * under the user's eyes).
 */
export function useTarget<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  return {
    target,
    open,
    show(t: T) {
      setTarget(t);
      setOpen(true);
    },
    close() {
      setOpen(false);
    },
  };
}
