import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Collection that cannot reach inside (DESIGN §11.5): a source's address must lead to the public internet.
 * A host is resolved and every address it has is checked against the networks a server must not be made to
 * call — loopback, private (RFC 1918, fc00::/7), link-local (the cloud metadata 169.254.169.254 among
 * them), CGNAT, multicast, «this network» (`http://0/`) and the other reserved ranges — unless the host is
 * one the operator allows (`COLLECT_ALLOW_HOSTS`). The URL parser has already turned decimal, octal and hex
 * spellings (`http://2130706433/`) into the dotted address they mean; every IPv6 form that carries an
 * IPv4 address (DESIGN §12.1: IPv4-compatible `::a.b.c.d`, mapped `::ffff:a.b.c.d`, translated
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`) is checked as that IPv4
 * as well, whatever hex spelling the URL parser gave it.
 */

const FORBIDDEN = new BlockList();
const V4: [string, number, string][] = [
  ['0.0.0.0', 8, '«эта сеть»'],
  ['10.0.0.0', 8, 'частная сеть'],
  ['100.64.0.0', 10, 'сеть оператора (CGNAT)'],
  ['127.0.0.0', 8, 'этот компьютер (loopback)'],
  ['169.254.0.0', 16, 'локальный адрес канала (в т. ч. метаданные облака)'],
  ['172.16.0.0', 12, 'частная сеть'],
  ['192.0.0.0', 24, 'служебная сеть'],
  ['192.0.2.0', 24, 'служебная сеть'],
  ['192.168.0.0', 16, 'частная сеть'],
  ['198.18.0.0', 15, 'служебная сеть'],
  ['198.51.100.0', 24, 'служебная сеть'],
  ['203.0.113.0', 24, 'служебная сеть'],
  ['224.0.0.0', 4, 'групповая рассылка (multicast)'],
  ['240.0.0.0', 4, 'зарезервированный адрес'],
];
const V6: [string, number, string][] = [
  ['::', 128, '«эта сеть»'],
  ['::1', 128, 'этот компьютер (loopback)'],
  ['64:ff9b::', 96, 'адрес IPv4 внутри IPv6 (NAT64)'],
  ['64:ff9b:1::', 48, 'адрес IPv4 внутри IPv6 (NAT64)'],
  ['100::', 64, 'служебная сеть'],
  ['2001:db8::', 32, 'служебная сеть'],
  ['fc00::', 7, 'частная сеть'],
  ['fe80::', 10, 'локальный адрес канала'],
  ['ff00::', 8, 'групповая рассылка (multicast)'],
];
for (const [net, prefix] of V4) FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6) FORBIDDEN.addSubnet(net, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (any spelling node:net accepts, a dotted IPv4 tail included). */
export function ipv6Bytes(address: string): Uint8Array {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === null ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = Number.parseInt(g || '0', 16);
    bytes[2 * i] = v >> 8;
    bytes[2 * i + 1] = v & 0xff;
  });
  return bytes;
}

const dottedOf = (b: Uint8Array, at: number, xor = 0) =>
  Array.from(b.subarray(at, at + 4), (x) => x ^ xor).join('.');

/**
 * The IPv4 addresses an IPv6 address carries (DESIGN §12.1): the last 32 bits of the IPv4-compatible
 * (::/96), mapped (::ffff:0:0/96), translated (::ffff:0:0:0/96) and NAT64 (64:ff9b::/96, 64:ff9b:1::/48)
 * forms; bits 16–47 of 6to4 (2002::/16); the server (bits 32–63) and the client (the last 32, inverted) of
 * Teredo (2001::/32).
 */
export function carriedIpv4(address: string): string[] {
  const b = ipv6Bytes(address);
  const zero = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  const word = (at: number) => (b[at] << 8) | b[at + 1];
  if (zero(0, 10) && ((b[10] === 0 && b[11] === 0) || (b[10] === 0xff && b[11] === 0xff)))
    return [dottedOf(b, 12)];
  if (zero(0, 8) && word(8) === 0xffff && word(10) === 0) return [dottedOf(b, 12)];
  if (word(0) === 0x64 && word(2) === 0xff9b) return [dottedOf(b, 12)];
  if (word(0) === 0x2002) return [dottedOf(b, 2)];
  if (word(0) === 0x2001 && word(2) === 0) return [dottedOf(b, 4), dottedOf(b, 12, 0xff)];
  return [];
}

/** Why an IP address may not be collected from (a network named in Russian), or null when it may. */
export function forbiddenAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'не IP-адрес';
  if (family === 6)
    for (const v4 of carriedIpv4(address)) {
      // ::1 and :: are themselves (loopback, «this network»), not 0.0.0.1
      if (v4 === '0.0.0.0' || v4 === '0.0.0.1') break;
      const why = forbiddenAddress(v4);
      if (why) return `адрес IPv4 ${v4} внутри IPv6: ${why}`;
    }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (!FORBIDDEN.check(address, type)) return null;
  for (const [net, prefix, why] of family === 4 ? V4 : V6) {
    const one = new BlockList();
    one.addSubnet(net, prefix, type);
    if (one.check(address, type)) return why;
  }
  return 'внутренний адрес';
}

/**
 * What the operator allows whatever it resolves to: COLLECT_ALLOW_HOSTS, comma-separated, each `host` or
 * `host:port` (`[v6]:port`), kept as `host:port` — a host without a port is allowed on the default ports of
 * http and https only (DESIGN §12.1), not on every service it runs; `host:*` says every port, on purpose.
 */
export function allowedHosts(value: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const raw of (value ?? '').split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d{1,5}|\*)$/.exec(entry);
    if (withPort) out.add(`${bareHost(withPort[1])}:${withPort[2] === '*' ? '*' : Number(withPort[2])}`);
    else for (const port of DEFAULT_PORTS) out.add(`${bareHost(entry)}:${port}`);
  }
  return out;
}

const DEFAULT_PORTS = [80, 443];

/** Whether a URL's host and port are allowed (a port left out is the scheme's default). */
export function isAllowed(policy: AddressPolicy, url: URL): boolean {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const host = bareHost(url.hostname);
  return policy.allow.has(`${host}:${port}`) || policy.allow.has(`${host}:*`);
}

/** Whether a host is allowed on some port (the connection's own check: the URL's port was checked first). */
export function isAllowedHost(policy: AddressPolicy, host: string): boolean {
  const h = bareHost(host);
  for (const entry of policy.allow) if (entry.slice(0, entry.lastIndexOf(':')) === h) return true;
  return false;
}

/** A URL's host as compared: lower case, IPv6 without its brackets. */
export const bareHost = (host: string) => host.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/** Every address of a host, as `dns.lookup` gives them (a test passes its own). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (host) =>
  new Promise((done, fail) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? fail(error) : done(addresses),
    ),
  );

/** Where a collection may go: the allowed hosts (`host:port`) and how names are resolved. */
export interface AddressPolicy {
  allow: Set<string>;
  resolve: Resolve;
}

/** The server's policy: the hosts of COLLECT_ALLOW_HOSTS, names as the system resolves them. */
export const defaultPolicy = (): AddressPolicy => ({
  allow: allowedHosts(process.env.COLLECT_ALLOW_HOSTS),
  resolve: systemResolve,
});

/** A refused address: said with the field it came from (a 400 for the API, a run's error for a collection). */
export class ForbiddenAddressError extends Error {}

/**
 * The addresses a URL's host may be connected to, every one checked; throws ForbiddenAddressError naming
 * `field` when the scheme is not http(s), the host cannot be resolved, or any of its addresses is inside.
 * An allowed host is returned unresolved (null): it is connected to as the system resolves it.
 */
export async function checkedAddresses(
  url: string,
  policy: AddressPolicy,
  field = 'url',
): Promise<{ address: string; family: number }[] | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ForbiddenAddressError(`${field}: не адрес http(s)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ForbiddenAddressError(`${field}: только http(s)`);
  const host = bareHost(parsed.hostname);
  if (isAllowed(policy, parsed)) return null;
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      throw new ForbiddenAddressError(`${field}: не удаётся найти адрес ${host}`);
    }
    if (addresses.length === 0) throw new ForbiddenAddressError(`${field}: не удаётся найти адрес ${host}`);
  }
  for (const a of addresses) {
    const why = forbiddenAddress(a.address);
    if (why)
      throw new ForbiddenAddressError(
        `${field}: ${host} ведёт во внутреннюю сеть (${a.address}: ${why}); сбор с таких адресов запрещён — ` +
          'разрешите хост в COLLECT_ALLOW_HOSTS, если это нужно',
      );
  }
  return addresses;
}
