import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './public-address';

describe('isPublicAddress', () => {
  it('judges plain IPv4 and IPv6 addresses by their ranges', () => {
    for (const address of ['8.8.8.8', '2606:4700::1111'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '::1', 'fd00::1', 'fe80::1'])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('judges IPv4-mapped and NAT64 addresses by the IPv4 address inside', () => {
    expect(isPublicAddress('::ffff:127.0.0.1')).toBe(false);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('64:ff9b::7f00:1')).toBe(false);
    expect(isPublicAddress('64:ff9b::808:808')).toBe(true);
  });

  it('judges the local-use NAT64 prefix 64:ff9b:1::/48 by the IPv4 address in its last 32 bits', () => {
    expect(isPublicAddress('64:ff9b:1::a9fe:a9fe')).toBe(false); // 169.254.169.254
    expect(isPublicAddress('64:ff9b:1:2:3:4:7f00:1')).toBe(false); // 127.0.0.1
    expect(isPublicAddress('64:ff9b:1::808:808')).toBe(true);
  });

  it('judges a 6to4 address (2002::/16) by the IPv4 address in bits 16 to 47', () => {
    expect(isPublicAddress('2002:7f00:1::1')).toBe(false); // 127.0.0.1
    expect(isPublicAddress('2002:a00:1:5::1')).toBe(false); // 10.0.0.1
    expect(isPublicAddress('2002:c0a8:101::')).toBe(false); // 192.168.1.1
    expect(isPublicAddress('2002:808:808::1')).toBe(true);
  });

  it('judges a Teredo address (2001::/32) by its server and its (inverted) client IPv4 address', () => {
    // Server 8.8.8.8; client 127.0.0.1 stored inverted as 80ff:fffe.
    expect(isPublicAddress('2001:0:808:808:0:0:80ff:fffe')).toBe(false);
    // Server 10.0.0.1 (private), client 8.8.8.8 (f7f7:f7f7).
    expect(isPublicAddress('2001:0:a00:1::f7f7:f7f7')).toBe(false);
    // Both public: server 8.8.8.8, client 1.1.1.1 (fefe:fefe).
    expect(isPublicAddress('2001:0:808:808::fefe:fefe')).toBe(true);
    // Outside the Teredo /32 (2001:db8::/32 is documentation, refused by its own range).
    expect(isPublicAddress('2001:4860::8888')).toBe(true);
    expect(isPublicAddress('2001:db8::1')).toBe(false);
  });
});
