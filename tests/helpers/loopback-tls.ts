/**
 * A certificate for https servers on 127.0.0.1 that every test process trusts: platform audio hosts
 * are asked over https only (a login-bound URL never travels in clear), so a stand-in CDN the daemon's
 * stream relay reaches (from an audio worker thread, where msw cannot answer) must speak TLS.
 *
 * `setup` is vitest's global setup: it runs once, before the test processes start, and they inherit
 * NODE_EXTRA_CA_CERTS from it (Node reads that variable only when a process starts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIR_VARIABLE = 'TEST_LOOPBACK_TLS_DIR';

export function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'loopback-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1'].concat([
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ]),
    { stdio: 'ignore' },
  );
  // Trusted beside whatever the machine already adds, not instead of it.
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  const bundle = join(dir, 'trusted.pem');
  const earlier = extra && existsSync(extra) ? readFileSync(extra, 'utf8') : '';
  writeFileSync(bundle, `${earlier}\n${readFileSync(certFile, 'utf8')}`);
  process.env.NODE_EXTRA_CA_CERTS = bundle;
  process.env[DIR_VARIABLE] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

/** The certificate and key for a loopback https server in a test process. */
export function loopbackTlsCredentials(): { cert: Buffer; key: Buffer } {
  const dir = process.env[DIR_VARIABLE];
  if (!dir)
    throw new Error(`${DIR_VARIABLE} is unset: run the tests through vitest.config.ts (its globalSetup)`);
  return { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) };
}
