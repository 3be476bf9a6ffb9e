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
    const allow = policy(' Intranet.Local , 127.0.0.1,[::1]');
    expect(await checkedAddresses('http://intranet.local/feed', allow)).toBeNull();
    expect(await checkedAddresses('http://127.0.0.1:8080/feed', allow)).toBeNull();
    expect(await checkedAddresses('http://[::1]/feed', allow)).toBeNull();
    await expect(checkedAddresses('http://10.0.0.1/', allow)).rejects.toThrow(ForbiddenAddressError);
  });
});
