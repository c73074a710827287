import { sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Identity, importOfficial, importPlain, importPrivateDer, parseOmega, uidOf } from './identity';
import { raiseSecurityLevel } from './raise-security-level';
import { findCounter, securityLevel } from './security-level';
import { b64, field, hex, vector } from './test-vectors';

describe('identity (vectors group identity, hashcash, misc)', () => {
  it('libtomcrypt private export (tsclientlib crypto.rs test key)', () => {
    const v = vector('identity', 'tsclientlib_test_key');
    const id = importPrivateDer(field(v, 'private_export_b64'));
    if (!id.ok) throw new Error(id.error);
    expect(id.value.x.toString('hex')).toBe(field(v, 'x'));
    expect(id.value.y.toString('hex')).toBe(field(v, 'y'));
    expect(id.value.omega).toBe(field(v, 'omega_b64'));
    expect(id.value.uid).toBe(field(v, 'uid_b64'));
    expect(id.value.exportPrivateDer()).toBe(field(v, 'private_export_b64'));
    expect(id.value.exportOfficial()).toBe(field(v, 'obfuscated_export_counter0'));
  });

  it("TS3AudioBot's short private export", () => {
    const v = vector('identity', 'ts3audiobot_short_private_export');
    const id = importPrivateDer(field(v, 'private_export_b64'));
    if (!id.ok) throw new Error(id.error);
    expect(id.value.x.toString('hex')).toBe(field(v, 'x'));
    expect(id.value.omega).toBe(field(v, 'omega_b64'));
    expect(id.value.uid).toBe(field(v, 'uid_b64'));
  });

  it('official obfuscated export round-trips byte for byte (ts3idtools README)', () => {
    const v = vector('identity', 'ts3idtools_obfuscated_export');
    const id = importOfficial(field(v, 'export'));
    if (!id.ok) throw new Error(id.error);
    expect(id.value.counter).toBe(v.counter);
    expect(id.value.omega).toBe(field(v, 'omega_b64'));
    expect(id.value.uid).toBe(field(v, 'uid_b64'));
    expect(id.value.securityLevel).toBe(8);
    expect(id.value.exportOfficial()).toBe(field(v, 'export'));
  });

  it('uid from omega (misc/uid_from_omega)', () => {
    const v = vector('misc', 'uid_from_omega');
    expect(uidOf(field(v, 'omega_b64'))).toBe(field(v, 'uid_b64'));
  });

  it('plain storage form round-trips', () => {
    const id = Identity.generate().withCounter(42);
    const back = importPlain(id.exportPlain());
    expect(back.ok && back.value.uid).toBe(id.uid);
    expect(back.ok && back.value.counter).toBe(42);
    expect(importPlain('nonsense').ok).toBe(false);
    expect(importOfficial('12Vnot-base64!').ok).toBe(false);
  });

  it('signs with the identity key and verifies through the omega', () => {
    const id = Identity.generate();
    const pub = parseOmega(id.omega);
    if (!pub.ok) throw new Error(pub.error);
    const sig = sign('sha256', Buffer.from('hello'), id.privateKey);
    expect(verify('sha256', Buffer.from('hello'), pub.value, sig)).toBe(true);
  });

  it('hashcash levels (ts3idtools and test key, LSB-first bit count)', () => {
    const a = vector('hashcash', 'ts3idtools_levels');
    for (const [counter, level] of Object.entries(a.levels as Record<string, number>)) {
      expect(securityLevel(field(a, 'omega_b64'), Number(counter))).toBe(level);
    }
    const b = vector('hashcash', 'test_key_levels');
    for (const [counter, level] of Object.entries(b.levels_0_to_40 as Record<string, number>)) {
      expect(securityLevel(field(b, 'omega_b64'), Number(counter))).toBe(level);
    }
    expect(findCounter(field(b, 'omega_b64'), 8, 0, 10_000)).toBe(b.first_counter_with_level_ge_8);
  });

  it('raises the level to 8 in slices, with the event loop free between them', async () => {
    const id = importPrivateDer(field(vector('identity', 'tsclientlib_test_key'), 'private_export_b64'));
    if (!id.ok) throw new Error(id.error);
    // Its first counter of level 8 is 354: past the first slice, so the search lets this run first.
    let yielded = false;
    setImmediate(() => {
      yielded = true;
    });
    const raised = await raiseSecurityLevel(id.value, 8);
    expect(raised.counter).toBe(354);
    expect(raised.securityLevel).toBeGreaterThanOrEqual(8);
    expect(yielded).toBe(true);
  });

  it('goes on in a worker thread when the level is not found within the first 4096 counters', async () => {
    const id = importPrivateDer(field(vector('identity', 'tsclientlib_test_key'), 'private_export_b64'));
    if (!id.ok) throw new Error(id.error);
    const { omega } = id.value;
    // The lowest level whose first counter lies past the inline search, for this key.
    let target = 9;
    while ((findCounter(omega, target, 1, 4096) ?? 0) > 0) target++;
    const raised = await raiseSecurityLevel(id.value, target);
    expect(raised.counter).toBe(findCounter(omega, target, 4097, 1_000_000));
    expect(raised.securityLevel).toBeGreaterThanOrEqual(target);
  });
});

describe('ECDSA signatures (vectors group signatures)', () => {
  for (const id of ['initivexpand2_proof_tsclientlib', 'initivexpand2_proof_tampered', 'clientek_proof']) {
    it(id, () => {
      const v = vector('signatures', id);
      const pub = parseOmega(field(v, 'public_omega_b64'));
      if (!pub.ok) throw new Error(pub.error);
      const message = v.message_b64 ? b64(field(v, 'message_b64')) : hex(field(v, 'message'));
      expect(verify('sha256', message, pub.value, b64(field(v, 'signature_b64')))).toBe(v.valid);
    });
  }
});
