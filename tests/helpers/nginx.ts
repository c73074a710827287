/**
 * The deploy kit's own reverse proxy (wrangler-free-deploy/reverse-proxy/nginx.conf) run by Debian's
 * nginx for a test: the file is rewritten only for ports, upstream addresses, certificate paths and,
 * for the sub-path layout, the location the RUNBOOK names; everything else is the kit's text.
 * A self-signed certificate for the kit's server name comes from openssl.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const KIT_CONF = 'wrangler-free-deploy/reverse-proxy/nginx.conf';
/** The name the kit's `server_name` carries; browsers are pointed at 127.0.0.1 for it. */
export const KIT_SERVER_NAME = 'music.example.org';
const NGINX = '/usr/sbin/nginx';

export const nginxInstalled = () => existsSync(NGINX);

export interface KitLayout {
  /** api processes' ports on 127.0.0.1, one upstream `server` line each. */
  upstreamPorts: number[];
  tlsPort: number;
  httpPort: number;
  /** `/music-bot`: the kit's `location /` becomes the stripping `location /music-bot/`. */
  subPath?: string;
}

export interface KitNginx {
  /** `https://music.example.org:<port><subPath>` */
  baseUrl: string;
  /** Writes the configuration for a new set of upstreams and reloads nginx (as an operator would). */
  reload(upstreamPorts: number[]): Promise<void>;
  errorLog(): string;
  stop(): Promise<void>;
}

/** The kit's configuration with only the deployment-specific values changed; throws if one is missing. */
export function renderKitConf(layout: KitLayout, cert: { certFile: string; keyFile: string }): string {
  let conf = readFileSync(KIT_CONF, 'utf8');
  const replace = (from: RegExp, to: string) => {
    if (!from.test(conf)) throw new Error(`${KIT_CONF} no longer has ${from}: update tests/helpers/nginx.ts`);
    conf = conf.replace(from, to);
  };
  const servers = layout.upstreamPorts.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`);
  replace(/( {2}server 127\.0\.0\.1:\d+ [^;]*;\n)+/, `  ${servers.join('\n  ')}\n`);
  replace(/listen 80;/, `listen 127.0.0.1:${layout.httpPort};`);
  replace(/listen 443 ssl http2;/, `listen 127.0.0.1:${layout.tlsPort} ssl http2;`);
  replace(/ssl_certificate \S+;/, `ssl_certificate ${cert.certFile};`);
  replace(/ssl_certificate_key \S+;/, `ssl_certificate_key ${cert.keyFile};`);
  if (layout.subPath) {
    replace(/location \/ \{/, `location ${layout.subPath}/ {`);
    replace(/proxy_pass http:\/\/tsmb_api;/, 'proxy_pass http://tsmb_api/;');
  }
  return conf;
}

/** Starts nginx in the foreground with the kit's configuration; resolves once TLS accepts connections. */
export async function startKitNginx(layout: KitLayout): Promise<KitNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'tsmb-nginx-'));
  const cert = { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') };
  const subject = ['-subj', `/CN=${KIT_SERVER_NAME}`, '-addext', `subjectAltName=DNS:${KIT_SERVER_NAME}`];
  const files = ['-keyout', cert.keyFile, '-out', cert.certFile];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', ...subject, ...files],
    {
      stdio: 'ignore',
    },
  );
  const siteFile = join(dir, 'site.conf');
  const writeSite = (upstreamPorts: number[]) =>
    writeFileSync(siteFile, renderKitConf({ ...layout, upstreamPorts }, cert));
  writeSite(layout.upstreamPorts);
  // What /etc/nginx/nginx.conf gives the kit's file on a real host, kept inside the temp folder.
  const mainFile = join(dir, 'nginx.conf');
  writeFileSync(
    mainFile,
    [
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'worker_processes 1;',
      'events { worker_connections 512; }',
      'http {',
      `  access_log off;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `  ${k}_temp_path ${join(dir, k)};`),
      `  include ${siteFile};`,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', mainFile, '-g', 'daemon off; user root;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const errorLog = () =>
    `${stderr}${existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''}`;
  await waitForPort(layout.tlsPort, child, errorLog);
  return {
    baseUrl: `https://${KIT_SERVER_NAME}:${layout.tlsPort}${layout.subPath ?? ''}`,
    async reload(upstreamPorts) {
      writeSite(upstreamPorts);
      execFileSync(NGINX, ['-p', dir, '-c', mainFile, '-s', 'reload'], { stdio: 'pipe' });
      // Workers pick the new configuration up at once; give the old ones a moment to hand over.
      await new Promise((r) => setTimeout(r, 300));
    },
    errorLog,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, child: ChildProcess, errorLog: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${errorLog()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx did not listen on ${port} within 10 s:\n${errorLog()}`);
}
