import { type RefObject, useEffect, useRef, useState } from 'react';

/**
 * What is out of view is not drawn, and what was never in view is not asked for (DESIGN §12.2): the
 * dashboard's first screen is its four first charts; the rest is drawn, and its data asked, as the page
 * is scrolled to it. One IntersectionObserver serves every element. No margin: a chart just below the
 * fold would cost the first screen as much as one in it (measured: eight charts drawn instead of four).
 */
const MARGIN = '0px';

type Listener = (inView: boolean) => void;
const listeners = new Map<Element, Set<Listener>>();
let observer: IntersectionObserver | null = null;

function watch(el: Element, listener: Listener): () => void {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) for (const l of listeners.get(e.target) ?? []) l(e.isIntersecting);
    },
    { rootMargin: MARGIN },
  );
  let set = listeners.get(el);
  if (!set) {
    set = new Set();
    listeners.set(el, set);
    observer.observe(el);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) {
      listeners.delete(el);
      observer?.unobserve(el);
    }
  };
}

/**
 * Whether the element is in view now, and whether it has been since it was
 * mounted. Where IntersectionObserver does not exist (a test's DOM), everything is in view.
 */
export function useInView(ref: RefObject<Element | null>): { inView: boolean; seen: boolean } {
  const [inView, setInView] = useState(typeof IntersectionObserver === 'undefined');
  const [seen, setSeen] = useState(inView);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    return watch(el, (now) => {
      setInView(now);
      if (now) setSeen(true);
    });
  }, [ref]);
  return { inView, seen };
}

/** A ref to put on a block and whether the block has been in view: its data are asked from then on. */
export function useSeen<E extends Element = HTMLDivElement>(): [RefObject<E | null>, boolean] {
  const ref = useRef<E>(null);
  return [ref, useInView(ref).seen];
}
