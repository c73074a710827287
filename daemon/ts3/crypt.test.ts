import { describe, expect, it } from 'vitest';
import {
  deriveSharedIv,
  FAKE_KEY,
  FAKE_KEY_NONCE,
  FAKE_NONCE,
  keyNonceBase,
  openPacket,
  SessionKeys,
  sealPacket,
  sharedMacOf,
} from './crypt';
import { basePointTimes, decodePoint, encodePoint, scalarFromLe, sharedPoint } from './ed25519';
import { deriveServerKey } from './license';
import { PacketType, parsePacket, writeMeta } from './packet';
import { b64, field, hex, vector } from './test-vectors';

describe('packet crypto (vectors group packet_crypto, shared_secret)', () => {
  it('fake key and nonce (constants/fake_key_nonce)', () => {
    const v = vector('constants', 'fake_key_nonce');
    expect(FAKE_KEY.toString('hex')).toBe(field(v, 'key'));
    expect(FAKE_NONCE.toString('hex')).toBe(field(v, 'nonce'));
  });

  it('fake-encrypted ack (tsclientlib algorithms.rs test_fake_encrypt)', () => {
    const v = vector('packet_crypto', 'fake_encrypted_ack');
    const meta = writeMeta('c2s', 0, 0, PacketType.Ack, 0);
    expect(meta.toString('hex')).toBe(field(v, 'meta'));
    const packet = sealPacket(FAKE_KEY_NONCE, meta, hex(field(v, 'plaintext')));
    expect(packet.toString('hex')).toBe(field(v, 'packet'));
  });

  it('key/nonce derivation (HoneyBBQ teamspeak-go TestGetKeyNonce)', () => {
    const v = vector('packet_crypto', 'keynonce_go_test');
    const keys = new SessionKeys(hex(field(v, 'shared_iv')));
    const kn = keys.keyNonce('c2s', PacketType.Command, 0, 2);
    expect(kn.key.toString('hex')).toBe(field(v, 'key'));
    expect(kn.nonce.toString('hex')).toBe(field(v, 'nonce'));
  });

  it('full new-protocol chain: license → shared point → SharedIV/SharedMac', () => {
    const v = vector('shared_secret', 'new_protocol_full_chain');
    const serverKey = deriveServerKey(
      b64(field(v, 'license_b64')),
      hex('cd0de2aed46345509a7e3cfd8f68b3dc7555b29dccec73cd18750f993812408a'),
    );
    if (!serverKey.ok) throw new Error(serverKey.error);
    expect(encodePoint(serverKey.value).toString('hex')).toBe(field(v, 'derived_server_key'));
    const priv = hex(field(v, 'client_ek_private'));
    expect(encodePoint(basePointTimes(scalarFromLe(priv))).toString('hex')).toBe(
      field(v, 'client_ek_public'),
    );
    const shared = sharedPoint(serverKey.value, priv);
    expect(shared.toString('hex')).toBe(field(v, 'shared_point'));
    const iv = deriveSharedIv(shared, b64(field(v, 'alpha_b64')), b64(field(v, 'beta_b64')));
    expect(iv.toString('hex')).toBe(field(v, 'shared_iv'));
    expect(sharedMacOf(iv).toString('hex')).toBe(field(v, 'shared_mac'));
    expect(keyNonceBase(iv, 'c2s', PacketType.Command, 0).toString('hex')).toBe(
      field(v, 'sha256_of_keynonce_input'),
    );
  });

  for (const id of [
    'ed25519_shared_TestGetSharedSecret2',
    'ed25519_shared_TestGetSharedSecret2WithCSharpData',
  ]) {
    it(`shared point ${id} (HoneyBBQ teamspeak-go)`, () => {
      const v = vector('shared_secret', id);
      const point = decodePoint(hex(field(v, 'server_point')));
      if (!point.ok) throw new Error(point.error);
      expect(sharedPoint(point.value, hex(field(v, 'private'))).toString('hex')).toBe(
        field(v, 'shared_point'),
      );
    });
  }

  it('ephemeral public from private', () => {
    const v = vector('shared_secret', 'ephemeral_public_from_private');
    const pub = encodePoint(basePointTimes(scalarFromLe(hex(field(v, 'private')))));
    expect(pub.toString('hex')).toBe(field(v, 'public'));
  });

  it('decrypts the captured official clientinit fragment (tsclientlib test_new_decrypt)', () => {
    const v = vector('packet_crypto', 'captured_clientinit_fragment');
    const iv = deriveSharedIv(
      hex(field(v, 'shared_secret_32')),
      hex(field(v, 'alpha')),
      b64(field(v, 'beta_b64')),
    );
    expect(iv.toString('hex')).toBe(field(v, 'shared_iv'));
    const keys = new SessionKeys(iv);
    expect(keys.sharedMac.toString('hex')).toBe(field(v, 'shared_mac'));
    const packet = parsePacket('c2s', hex(field(v, 'packet')));
    if (!packet.ok) throw new Error(packet.error);
    const kn = keys.keyNonce('c2s', PacketType.Command, 0, packet.value.id);
    expect(kn.key.toString('hex')).toBe(field(v, 'key_pid2'));
    const plain = openPacket(kn, packet.value);
    expect(plain.ok && plain.value.toString('utf8')).toBe(field(v, 'plaintext_text'));
  });

  for (const [id, direction] of [
    ['c2s_command_encrypt', 'c2s'],
    ['s2c_command_encrypt', 's2c'],
  ] as const) {
    it(`${id} (whole packet)`, () => {
      const v = vector('packet_crypto', id);
      const keys = new SessionKeys(hex(field(v, 'shared_iv')));
      const raw = hex(field(v, 'packet'));
      const parsed = parsePacket(direction, raw);
      if (!parsed.ok) throw new Error(parsed.error);
      expect(parsed.value.meta.toString('hex')).toBe(field(v, 'meta'));
      const kn = keys.keyNonce(direction, PacketType.Command, 0, parsed.value.id);
      expect(kn.key.toString('hex')).toBe(field(v, 'key'));
      expect(kn.nonce.toString('hex')).toBe(field(v, 'nonce'));
      const sealed = sealPacket(kn, parsed.value.meta, Buffer.from(field(v, 'plaintext_text'), 'utf8'));
      expect(sealed.toString('hex')).toBe(field(v, 'packet'));
      const opened = openPacket(kn, parsed.value);
      expect(opened.ok && opened.value.toString('utf8')).toBe(field(v, 'plaintext_text'));
    });
  }

  it('generation wrap changes the key (packet_crypto/generation_wrap)', () => {
    const v = vector('packet_crypto', 'generation_wrap');
    const keys = new SessionKeys(hex(field(v, 'shared_iv')));
    const g0 = v.gen0_pid65535 as Record<string, string>;
    const g1 = v.gen1_pid0 as Record<string, string>;
    expect(keys.keyNonce('c2s', PacketType.Command, 0, 65535).key.toString('hex')).toBe(g0.key);
    expect(keys.keyNonce('c2s', PacketType.Command, 1, 0).key.toString('hex')).toBe(g1.key);
    expect(keys.keyNonce('c2s', PacketType.Command, 1, 0).nonce.toString('hex')).toBe(g1.nonce);
  });
});
