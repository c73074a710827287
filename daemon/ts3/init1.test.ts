import { describe, expect, it } from 'vitest';
import { INIT1_MAC } from './crypt';
import {
  clientStep0,
  clientStep2,
  clientStep4,
  INIT1_PACKET_ID,
  parseClientInit1,
  parseServerInit1,
  serverStep1,
  serverStep3,
} from './init1';
import { PacketFlag, PacketType, writeMeta } from './packet';
import { bigIntFromBytes, solvePuzzle } from './rsa-puzzle';
import { field, hex, vector, vectorGroup } from './test-vectors';

describe('RSA puzzle (vectors group rsa_puzzle)', () => {
  for (const v of vectorGroup('rsa_puzzle')) {
    it(v.id, () => {
      expect(solvePuzzle(hex(field(v, 'x')), hex(field(v, 'n')), v.level as number).toString('hex')).toBe(
        field(v, 'y'),
      );
    });
  }
});

describe('Init1 layout (init1/init_handshake_layout)', () => {
  const v = vector('init1', 'init_handshake_layout');
  it('builds and parses all five steps', () => {
    const step0 = clientStep0(hex('a1b2c3d4'), 1_700_000_000);
    expect(step0.toString('hex')).toBe(field(v, 'step0_c2s_payload'));
    const parsed0 = parseClientInit1(step0);
    expect(parsed0.ok && parsed0.value.step === 0 && parsed0.value.random0.toString('hex')).toBe('a1b2c3d4');

    const step1 = serverStep1(hex('00112233445566778899aabbccddeeff'), hex('a1b2c3d4'));
    expect(step1.toString('hex')).toBe(field(v, 'step1_s2c_payload'));
    expect(parseServerInit1(step1).ok).toBe(true);
    const step2 = clientStep2(step1);
    expect(step2.toString('hex')).toBe(field(v, 'step2_c2s_payload'));

    const one = Buffer.alloc(64);
    one[63] = 1;
    const step3 = serverStep3({ x: one, n: one, level: 1, serverBytes: Buffer.alloc(100) });
    expect(step3.toString('hex')).toBe(field(v, 'step3_s2c_payload'));
    const parsed3 = parseServerInit1(step3);
    if (!parsed3.ok || parsed3.value.step !== 3) throw new Error('step 3 did not parse');
    const { x, n, level } = parsed3.value.puzzle;
    expect(bigIntFromBytes(x)).toBe(1n);
    const y = solvePuzzle(x, n, level);
    const step4 = clientStep4(step3, y, field(v, 'step4_command_text'));
    expect(step4.toString('hex')).toBe(field(v, 'step4_c2s_payload'));
    expect(step4.length).toBe(v.step4_length);
    const parsed4 = parseClientInit1(step4);
    expect(parsed4.ok && parsed4.value.step === 4 && parsed4.value.command).toBe(
      field(v, 'step4_command_text'),
    );
  });

  it('writes the Init1 headers (c2s with client id 0, s2c without)', () => {
    expect(
      writeMeta('c2s', INIT1_PACKET_ID, 0, PacketType.Init1, PacketFlag.Unencrypted).toString('hex'),
    ).toBe(field(v, 'c2s_header').slice(16));
    expect(
      writeMeta('s2c', INIT1_PACKET_ID, 0, PacketType.Init1, PacketFlag.Unencrypted).toString('hex'),
    ).toBe(field(v, 's2c_header').slice(16));
    expect(INIT1_MAC.toString('hex')).toBe(field(v, 'c2s_header').slice(0, 16));
  });

  it('reports a 5-byte step 1 as an error and garbage as a value', () => {
    expect(parseServerInit1(hex('0100000001')).ok).toBe(false);
    expect(parseServerInit1(hex('09')).ok).toBe(false);
    expect(parseClientInit1(hex('0000')).ok).toBe(false);
  });
});
