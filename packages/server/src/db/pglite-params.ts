/**
 * PGlite sends a bytea parameter to its server byte by byte (a collected feed's 3 MB raw body: 850 ms of a
 * 100,000-offer collection); the same bytes as base64 text, decoded by the server, take 90 ms. Each bytes
 * parameter `$n` becomes `decode($n::text, 'base64')`, its value the text. A bytes value is never inside a
 * list (`$n::bytea[]`), so only a parameter that is itself bytes is rewritten.
 */
export function bytesAsBase64(sql: string, params: unknown[]): [string, unknown[]] {
  if (!params.some((p) => p instanceof Uint8Array)) return [sql, params];
  return [
    sql.replace(/\$(\d+)(?!\d)/g, (name, n: string) =>
      params[Number(n) - 1] instanceof Uint8Array ? `decode(${name}::text, 'base64')` : name,
    ),
    params.map((p) =>
      p instanceof Uint8Array ? Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('base64') : p,
    ),
  ];
}
