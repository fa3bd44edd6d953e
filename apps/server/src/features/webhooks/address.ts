import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_MSG } from '@obol/contract';
import { unprocessable } from '../../platform/errors.ts';

/**
 * Addresses a webhook may never reach in production (SSRF): this host, private networks, link-local (cloud
 * metadata at 169.254.169.254), carrier NAT, documentation, benchmark, multicast and reserved ranges, in IPv4 and
 * IPv6 (IPv4-mapped IPv6 addresses are checked as the IPv4 they carry).
 */
const refused = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refused.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  refused.addSubnet(net, bits, 'ipv6');

export function isRefusedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return refused.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface Resolved {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a receiver's host and answers the address to connect to, refusing (422 on `field`) one whose any address
 * is refused unless `allowPrivate` (outside production, for receivers on this machine). Called when an endpoint is
 * added and again before every delivery, whose connection then goes to the address checked here (no second look-up
 * a DNS rebinding could answer differently).
 */
export async function checkReceiver(url: string, allowPrivate: boolean, field = 'url'): Promise<Resolved> {
  const u = new URL(url);
  if (!allowPrivate && u.protocol !== 'https:') throw unprocessable(WEBHOOK_MSG.url, field);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  let addresses: Resolved[];
  try {
    addresses = (await lookup(host, { all: true, verbatim: true })) as Resolved[];
  } catch {
    throw unprocessable(`The host ${host} could not be resolved`, field);
  }
  if (!addresses.length) throw unprocessable(`The host ${host} could not be resolved`, field);
  if (!allowPrivate && addresses.some((a) => isRefusedAddress(a.address)))
    throw unprocessable(WEBHOOK_MSG.urlPrivate, field);
  return addresses[0];
}
