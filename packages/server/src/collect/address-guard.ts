import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Collection that cannot reach inside (DESIGN §11.5): a source's address must lead to the public internet.
 * A host is resolved and every address it has is checked against the networks a server must not be made to
 * call — loopback, private (RFC 1918, fc00::/7), link-local (the cloud metadata 169.254.169.254 among
 * them), CGNAT, multicast, «this network» (`http://0/`) and the other reserved ranges — unless the host is
 * one the operator allows (`COLLECT_ALLOW_HOSTS`). The URL parser has already turned decimal, octal and hex
 * spellings (`http://2130706433/`) into the dotted address they mean; IPv4-mapped IPv6 addresses are
 * checked as the IPv4 they carry (node:net's BlockList).
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
  ['64:ff9b::', 96, 'адрес IPv4 внутри IPv6'],
  ['100::', 64, 'служебная сеть'],
  ['2001:db8::', 32, 'служебная сеть'],
  ['fc00::', 7, 'частная сеть'],
  ['fe80::', 10, 'локальный адрес канала'],
  ['ff00::', 8, 'групповая рассылка (multicast)'],
];
for (const [net, prefix] of V4) FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6) FORBIDDEN.addSubnet(net, prefix, 'ipv6');

/** Why an IP address may not be collected from (a network named in Russian), or null when it may. */
export function forbiddenAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'не IP-адрес';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (!FORBIDDEN.check(address, type)) return null;
  for (const [net, prefix, why] of family === 4 ? V4 : V6) {
    const one = new BlockList();
    one.addSubnet(net, prefix, type);
    if (one.check(address, type)) return why;
  }
  // an IPv4-mapped IPv6 address: the IPv4 network it carries
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return forbiddenAddress(mapped[1]);
  return 'внутренний адрес';
}

/** The hosts the operator allows whatever they resolve to: COLLECT_ALLOW_HOSTS, comma-separated. */
export function allowedHosts(value: string | undefined): Set<string> {
  return new Set(
    (value ?? '')
      .split(',')
      .map((h) => bareHost(h.trim()))
      .filter(Boolean),
  );
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

/** Where a collection may go: the allowed hosts and how names are resolved. */
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
  if (policy.allow.has(host)) return null;
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
