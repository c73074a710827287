import { describe, expect, it } from 'vitest';
import { type PlatformAddress, RenewableAddress } from './address-renewal';

const first: PlatformAddress = { url: 'https://cdn.test/a?sig=1', headers: { referer: 'https://p.test/' } };

/** A renewer handing out fresh addresses in order, counting its calls. */
function renewer(...fresh: (PlatformAddress | undefined)[]) {
  const calls = { count: 0 };
  return { calls, renew: async () => fresh[calls.count++] };
}

describe('renewing an expired stream address', () => {
  it('renews a refused address once, and gives up when the fresh one is refused before it served', async () => {
    const second = { url: 'https://cdn.test/a?sig=2' };
    const { calls, renew } = renewer(second, { url: 'https://cdn.test/a?sig=3' });
    const address = new RenewableAddress(first, renew);
    expect(await address.renew(first, 403)).toBe(second);
    expect(address.current).toBe(second);
    expect(await address.renew(second, 403)).toBeUndefined();
    expect(calls.count).toBe(1);
  });

  it('renews again once the fresh address has served audio and expires in its turn', async () => {
    const second = { url: 'https://cdn.test/a?sig=2' };
    const third = { url: 'https://cdn.test/a?sig=3' };
    const address = new RenewableAddress(first, renewer(second, third).renew);
    await address.renew(first, 410);
    address.served(second);
    expect(await address.renew(second, 404)).toBe(third);
  });

  it('asks once for requests refused together, and sends a late one to the address renewed meanwhile', async () => {
    const second = { url: 'https://cdn.test/a?sig=2' };
    const { calls, renew } = renewer(second);
    const address = new RenewableAddress(first, renew);
    const both = await Promise.all([address.renew(first, 403), address.renew(first, 403)]);
    expect(both).toEqual([second, second]);
    expect(await address.renew(first, 403)).toBe(second);
    expect(calls.count).toBe(1);
  });

  it('leaves other refusals, a stream without a renewer and a source that fails as they are', async () => {
    const { calls, renew } = renewer({ url: 'https://cdn.test/a?sig=2' });
    expect(await new RenewableAddress(first, renew).renew(first, 500)).toBeUndefined();
    expect(await new RenewableAddress(first, renew).renew(first, 401)).toBeUndefined();
    expect(calls.count).toBe(0);
    expect(await new RenewableAddress(first, undefined).renew(first, 403)).toBeUndefined();
    const failing = new RenewableAddress(first, async () => {
      throw new Error('the platform is down');
    });
    expect(await failing.renew(first, 403)).toBeUndefined();
    expect(failing.current).toBe(first);
  });
});
