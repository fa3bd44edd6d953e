import { lazy, type ComponentType } from 'react';

type Loaded<P> = { default: ComponentType<P> };

/**
 * React.lazy with a preload: once loaded, the module is handed over synchronously (a thenable that resolves at
 * once), so a screen loaded ahead renders without a Suspense fallback.
 */
export function lazyScreen<P extends object>(load: () => Promise<Loaded<P>>) {
  let loaded: Loaded<P> | undefined;
  let pending: Promise<Loaded<P>> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (m) => (loaded = m),
      (e: unknown) => {
        pending = undefined;
        throw e;
      },
    ));
  const Component = lazy(() =>
    loaded ? ({ then: (resolve: (m: Loaded<P>) => void) => resolve(loaded!) } as Promise<Loaded<P>>) : preload(),
  );
  return Object.assign(Component, { preload });
}
