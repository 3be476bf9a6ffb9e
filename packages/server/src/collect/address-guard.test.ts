import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AddressPolicy,
  allowedHosts,
  checkedAddresses,
  ForbiddenAddressError,
  forbiddenAddress,
} from './address-guard.js';

/** A resolver of the test's own: names to the addresses given, anything else unknown. */
const resolver =
  (names: Record<string, string[]>): AddressPolicy['resolve'] =>
  async (host) => {
    const list = names[host];
    if (!list) throw new Error(`ENOTFOUND ${host}`);
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
const policy = (allow = '', names: Record<string, string[]> = {}): AddressPolicy => ({
  allow: allowedHosts(allow),
  resolve: resolver({ 'feeds.example.ru': ['93.184.216.34'], ...names }),
});

describe('addresses a collection may not reach (DESIGN §11.5)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'частная'],
    ['172.20.0.1', 'частная'],
    ['192.168.1.1', 'частная'],
    ['fd00:ec2::254', 'частная'],
    ['169.254.169.254', 'метаданные'],
    ['fe80::1', 'локальный'],
    ['100.64.0.1', 'CGNAT'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'эта сеть'],
    ['::', 'эта сеть'],
    ['255.255.255.255', 'зарезервированный'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'метаданные'],
  ])('%s is refused (%s)', (address, why) => {
    expect(forbiddenAddress(address)).toContain(why);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2a00:1450:4010:c0b::64', '::ffff:93.184.216.34'])(
    '%s, a public address, may be reached',
    (address) => {
      expect(forbiddenAddress(address)).toBeNull();
    },
  );

  it.each([
    'http://127.0.0.1/feed.xml',
    'http://localhost/',
    'http://[::1]:8080/',
    'http://10.0.0.5/',
    'http://192.168.0.10/list',
    'http://169.254.169.254/latest/meta-data/',
    'http://2130706433/',
    'http://017700000001/',
    'http://0x7f.0.0.1/',
    'http://127.1/',
    'http://0/',
    'http://[::ffff:7f00:1]/',
    'http://rebind.example.ru/',
  ])('%s is refused with the field named, resolved by the policy', async (url) => {
    const p = policy('', {
      localhost: ['127.0.0.1', '::1'],
      'rebind.example.ru': ['93.184.216.34', '127.0.0.1'],
    });
    await expect(checkedAddresses(url, p, 'url')).rejects.toThrow(ForbiddenAddressError);
    await expect(checkedAddresses(url, p, 'url')).rejects.toThrow(/^url: /);
  });

  it('takes a public host, refuses other schemes and unknown names, and lets the operator allow a host', async () => {
    expect(await checkedAddresses('https://feeds.example.ru/a.xml', policy())).toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    await expect(checkedAddresses('file:///etc/passwd', policy())).rejects.toThrow(/только http/);
    await expect(checkedAddresses('gopher://feeds.example.ru/', policy())).rejects.toThrow(/только http/);
    await expect(checkedAddresses('http://nowhere.example.ru/', policy())).rejects.toThrow(
      /не удаётся найти/,
    );
    await expect(checkedAddresses('не адрес', policy())).rejects.toThrow(/не адрес http/);
    // COLLECT_ALLOW_HOSTS: names and addresses, case aside, IPv6 with or without brackets
    const allow = policy(' Intranet.Local , 127.0.0.1,[::1], 10.0.0.7:8080, [fd00::1]:9000, 10.0.0.9:*');
    expect(await checkedAddresses('http://intranet.local/feed', allow)).toBeNull();
    expect(await checkedAddresses('https://intranet.local/feed', allow)).toBeNull();
    expect(await checkedAddresses('http://127.0.0.1:80/feed', allow)).toBeNull();
    expect(await checkedAddresses('https://127.0.0.1:443/feed', allow)).toBeNull();
    expect(await checkedAddresses('http://[::1]/feed', allow)).toBeNull();
    await expect(checkedAddresses('http://10.0.0.1/', allow)).rejects.toThrow(ForbiddenAddressError);
    // a host without a port: its default ports only (DESIGN §12.1), not every service it runs
    for (const url of ['http://127.0.0.1:8080/feed', 'http://127.0.0.1:6379/', 'http://[::1]:5432/'])
      await expect(checkedAddresses(url, allow), url).rejects.toThrow(ForbiddenAddressError);
    // host:port opens that port only; host:* every port, said on purpose
    expect(await checkedAddresses('http://10.0.0.7:8080/feed', allow)).toBeNull();
    await expect(checkedAddresses('http://10.0.0.7/feed', allow)).rejects.toThrow(ForbiddenAddressError);
    await expect(checkedAddresses('http://10.0.0.7:8081/', allow)).rejects.toThrow(ForbiddenAddressError);
    expect(await checkedAddresses('http://[fd00::1]:9000/', allow)).toBeNull();
    await expect(checkedAddresses('http://[fd00::1]/', allow)).rejects.toThrow(ForbiddenAddressError);
    expect(await checkedAddresses('http://10.0.0.9:1234/', allow)).toBeNull();
  });
});

describe('IPv6 forms that carry an IPv4 address are checked as that address (DESIGN §12.1)', () => {
  const hex = (v4: string) => {
    const [a, b, c, d] = v4.split('.').map(Number);
    return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
  };
  const inverted = (v4: string) =>
    hex(
      v4
        .split('.')
        .map((x) => 255 - Number(x))
        .join('.'),
    );
  /** Every spelling of an IPv4 inside IPv6 that DESIGN §12.1 names, dotted and in hex. */
  const forms = (v4: string) => {
    const [hi, lo] = hex(v4);
    const [ihi, ilo] = inverted(v4);
    return [
      `::${v4}`,
      `::${hi}:${lo}`,
      `::ffff:${v4}`,
      `::ffff:${hi}:${lo}`,
      `0:0:0:0:0:ffff:${hi}:${lo}`,
      `::ffff:0:${v4}`,
      `::ffff:0:${hi}:${lo}`,
      `64:ff9b::${v4}`,
      `64:ff9b::${hi}:${lo}`,
      `64:ff9b:1::${hi}:${lo}`,
      `2002:${hi}:${lo}::`,
      `2002:${hi}:${lo}:1:2:3:4:5`,
      `2001:0:${hi}:${lo}::`,
      `2001:0:4136:e378:8000:63bf:${ihi}:${ilo}`,
    ];
  };
  const internal = ['127.0.0.1', '10.1.2.3', '169.254.169.254', '192.168.0.1', '172.16.5.4', '100.64.0.9'];

  it.each(internal)('every IPv6 form of %s is refused, as an address and as a URL', async (v4) => {
    const p = policy();
    for (const address of forms(v4)) {
      expect(forbiddenAddress(address), address).not.toBeNull();
      // the URL parser rewrites the host in hex: the guard reads what it gives
      await expect(checkedAddresses(`http://[${address}]/feed`, p), address).rejects.toThrow(
        ForbiddenAddressError,
      );
    }
  });

  it('the spellings of the issue: ::127.0.0.1, ::ffff:0:127.0.0.1, 2002:7f00:1::', async () => {
    for (const url of ['http://[::127.0.0.1]/', 'http://[::ffff:0:127.0.0.1]/', 'http://[2002:7f00:1::]/'])
      await expect(checkedAddresses(url, policy()), url).rejects.toThrow(/^url: .*внутреннюю сеть/);
  });

  it('generated: any address of a forbidden IPv4 network, in any carrying form, is refused', () => {
    const networks: [number, number][] = [
      [0x7f000000, 8],
      [0x0a000000, 8],
      [0xa9fe0000, 16],
      [0xc0a80000, 16],
      [0xac100000, 12],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...networks), fc.nat(), fc.nat(13), ([base, bits], n, form) => {
        const value = (base | (n & ((1 << (32 - bits)) - 1))) >>> 0;
        const v4 = [24, 16, 8, 0].map((s) => (value >>> s) & 255).join('.');
        return forbiddenAddress(forms(v4)[form]) !== null;
      }),
      { numRuns: 2000 },
    );
  });

  it('a public IPv4 in 6to4 or mapped form stays reachable; ::1 and :: stay themselves', () => {
    expect(forbiddenAddress('2002:5db8:d822::1')).toBeNull();
    expect(forbiddenAddress('::ffff:8.8.8.8')).toBeNull();
    expect(forbiddenAddress('::1')).toContain('loopback');
    expect(forbiddenAddress('::')).toContain('эта сеть');
  });
});
