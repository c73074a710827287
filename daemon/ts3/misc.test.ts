import { ed25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { CLIENT_VERSIONS } from '../../shared/domain/client-versions';
import { avatarFileName, avatarFlag } from './avatar';
import { VERSION_SIGN_PUBLIC_KEY } from './client-version';
import { SessionKeys, sealPacket } from './crypt';
import { assemblePacket, PacketFlag, PacketType, writeMeta } from './packet';
import { hashPassword } from './password';
import { b64, field, hex, vector, vectorGroup } from './test-vectors';

describe('misc vectors', () => {
  it('password hash (misc/password_hash)', () => {
    const v = vector('misc', 'password_hash');
    for (const [password, hash] of Object.entries(v.examples as Record<string, string>)) {
      expect(hashPassword(password)).toBe(hash);
    }
    expect(hashPassword('')).toBe('');
  });

  it('avatar flag and file name (misc/avatar_flag, base64_hash_client_uid_*)', () => {
    const flag = vector('misc', 'avatar_flag');
    expect(avatarFlag(Buffer.from(field(flag, 'example_file_ascii'), 'ascii'))).toBe(field(flag, 'md5_hex'));
    for (const id of ['base64_hash_client_uid_1', 'base64_hash_client_uid_2']) {
      const v = vector('misc', id);
      expect(avatarFileName(field(v, 'uid_b64'))).toBe(field(v, 'avatar_file_name'));
    }
  });

  it('version signatures verify against TeamSpeak’s key (group signatures, version_sign_*)', () => {
    const key = b64(VERSION_SIGN_PUBLIC_KEY);
    for (const v of vectorGroup('signatures').filter((x) => x.id.startsWith('version_sign_'))) {
      const message = Buffer.from(field(v, 'message_ascii'), 'ascii');
      expect(ed25519.verify(b64(field(v, 'client_version_sign_b64')), message, key)).toBe(true);
    }
  });

  it('every version in the table a bot can choose is signed by TeamSpeak', () => {
    const key = b64(VERSION_SIGN_PUBLIC_KEY);
    for (const [id, v] of Object.entries(CLIENT_VERSIONS)) {
      const message = Buffer.from(v.platform + v.version, 'ascii');
      expect(ed25519.verify(b64(v.sign), message, key), id).toBe(true);
    }
  });
});

describe('unencrypted packets and voice (group packet_crypto, voice)', () => {
  const iv = hex(field(vector('shared_secret', 'new_protocol_full_chain'), 'shared_iv'));
  const keys = new SessionKeys(iv);

  it('ping and pong carry the SharedMac', () => {
    const ping = writeMeta('c2s', 3, 7, PacketType.Ping, PacketFlag.Unencrypted);
    expect(assemblePacket(keys.sharedMac, ping, Buffer.alloc(0)).toString('hex')).toBe(
      field(vector('packet_crypto', 'c2s_ping_unencrypted'), 'packet'),
    );
    const pong = writeMeta('c2s', 4, 7, PacketType.Pong, PacketFlag.Unencrypted);
    expect(assemblePacket(keys.sharedMac, pong, hex('0010')).toString('hex')).toBe(
      field(vector('packet_crypto', 'c2s_pong_unencrypted'), 'packet'),
    );
  });

  it('end-of-burst voice packet, clear and encrypted', () => {
    const clear = vector('voice', 'c2s_voice_end_of_burst_unencrypted');
    const meta = writeMeta('c2s', 0x11, 1, PacketType.Voice, PacketFlag.Unencrypted);
    expect(assemblePacket(keys.sharedMac, meta, hex(field(clear, 'payload'))).toString('hex')).toBe(
      field(clear, 'packet'),
    );
    const enc = vector('voice', 'c2s_voice_end_of_burst_encrypted');
    const kn = keys.keyNonce('c2s', PacketType.Voice, 0, 0x11);
    expect(kn.key.toString('hex')).toBe(field(enc, 'key'));
    const sealed = sealPacket(
      kn,
      writeMeta('c2s', 0x11, 1, PacketType.Voice, 0),
      hex(field(enc, 'plaintext')),
    );
    expect(sealed.toString('hex')).toBe(field(enc, 'packet'));
  });
});
