/**
 * Price lists this server publishes itself (the demo's two feeds), read in-process through `local:` URLs —
 * never over HTTP to this machine, which a collection may not reach (DESIGN §11.5). A feed is registered by
 * the code that makes it; only that code makes sources with such an address (the API and the CLI take
 * http(s) only).
 */
const feeds = new Map<string, (url: URL) => Buffer>();

export const LOCAL_PROTOCOL = 'local:';

export function registerLocalFeed(path: string, read: (url: URL) => Buffer): void {
  feeds.set(path, read);
}

/** The body of a `local:` URL's feed; throws when no such feed is registered. */
export function readLocalFeed(url: URL): Buffer {
  const read = feeds.get(url.pathname);
  if (!read) throw new Error(`нет фида ${url.href}`);
  return read(url);
}
