import { type ComponentType, createElement, lazy } from 'react';

/**
 * A page loaded on demand, like React.lazy, that renders at once — without suspending — when its code
 * is already loaded. React keeps a Suspense boundary's fallback up for at least 300 ms once shown, so a
 * page whose code came with the first load (the dashboard, fetched beside the app's own bundle) would
 * otherwise wait that long behind a skeleton with its data ready (DESIGN §12.2). `preload` starts loading.
 */
export function loadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () => {
    loading ??= load().then((m) => {
      loaded = m.default;
      return m;
    });
    return loading;
  };
  const Lazy = lazy(preload);
  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module level, as React.lazy is
  function Page(props: P) {
    return loaded ? createElement(loaded, props) : createElement(Lazy, props);
  }
  return Object.assign(Page, { preload });
}
