/**
 * The container image (Dockerfile) and the two compose files, proved as far as a machine without a
 * container engine can: every COPY, build context, command script and volume names something that
 * exists (and a COPY source is not left out by .dockerignore); then the image's build steps, the same
 * scripts `make run` calls, replayed in a clean clone of HEAD as an unprivileged user with HOME and
 * DATA_DIR where the image puts them (under a temporary root), the app's files root-owned as in the
 * image, and the image's command started from there: /api/health answers, the image's own HEALTHCHECK
 * passes while it runs and fails once it has stopped on the image's stop signal.
 * Never run here: the engine itself (its base image, apt inside it, its volume and network handling).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testkit/free-port';
import {
  type ComposeFile,
  dockerIgnores,
  execForm,
  healthCheckCommand,
  inheritedInstructions,
  lastValue,
  parseCopy,
  parseDockerfile,
  parseVolume,
  readCompose,
  stageEnv,
} from '../helpers/container-files';
import { nginxInstalled } from '../helpers/nginx';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCKERFILE = join(ROOT, 'Dockerfile');
const IGNORE_RULES = readFileSync(join(ROOT, '.dockerignore'), 'utf8');
/** The single-machine default and the scaled-out kit. */
const COMPOSE_FILES = ['compose.yaml', 'wrangler-free-deploy/compose.yaml'];
const KIT_SITE = 'wrangler-free-deploy/reverse-proxy/nginx.conf';
const COMPOSE_SITE = 'wrangler-free-deploy/reverse-proxy/compose-site.conf';
/** The user the replay runs as: nobody, as unprivileged as a user gets. */
const UNPRIVILEGED = 65534;

const stages = parseDockerfile(DOCKERFILE);
const finalStage = stages.at(-1)!;
const imageEnv = stageEnv(stages, finalStage);
const workdir = lastValue(stages, finalStage, 'WORKDIR')!;
const command = execForm(lastValue(stages, finalStage, 'CMD')!);
/** The stage the final one copies the built app from. */
const buildStage = stages.find(
  (s) =>
    s.name ===
    finalStage.instructions.filter((i) => i.keyword === 'COPY').map((i) => parseCopy(i.args).from)[0],
)!;

/** Files a command runs (its arguments that name a script), relative to the app's folder. */
const scriptsOf = (words: string[]) => words.filter((w) => /^[\w./-]+\.(ts|mjs|js|sh)$/.test(w));

describe('the Dockerfile', () => {
  it('copies only what exists in the build context and is not left out by .dockerignore', () => {
    const stageNames: string[] = [];
    const checked: string[] = [];
    for (const stage of stages) {
      for (const { keyword, args } of stage.instructions) {
        if (keyword === 'ADD') throw new Error('ADD: use COPY (this test checks COPY)');
        if (keyword !== 'COPY') continue;
        const copy = parseCopy(args);
        if (copy.from) {
          expect(stageNames, `COPY --from=${copy.from}: an earlier stage`).toContain(copy.from);
          continue;
        }
        for (const source of copy.sources) {
          expect(existsSync(join(ROOT, source)), `COPY ${source}: in the repository`).toBe(true);
          expect(dockerIgnores(IGNORE_RULES, source), `COPY ${source}: not in .dockerignore`).toBe(false);
          checked.push(source);
        }
      }
      if (stage.name) stageNames.push(stage.name);
    }
    expect(checked).toContain('package-lock.json');
  });

  it('leaves what the build makes, and what must not reach an image, out of the context', () => {
    for (const path of [
      'node_modules',
      'data/bot.db',
      'build/pcm-decoder',
      'web/dist/index.html',
      'test-output',
    ])
      expect(dockerIgnores(IGNORE_RULES, path), path).toBe(true);
    for (const path of ['main.ts', 'native/pcm-decoder.c', 'scripts/build-native.sh', 'web/src'])
      expect(dockerIgnores(IGNORE_RULES, path), path).toBe(false);
  });

  it('runs each build script after the COPY that brings it in, and they are the scripts `make` runs', () => {
    const makefile = readFileSync(join(ROOT, 'Makefile'), 'utf8');
    const ran: string[] = [];
    for (const stage of stages) {
      const copied: string[] = [];
      for (const { keyword, args } of inheritedInstructions(stages, stage)) {
        if (keyword === 'COPY' && !parseCopy(args).from) copied.push(...parseCopy(args).sources);
        if (keyword !== 'RUN' || stage !== buildStage) continue;
        for (const script of args.match(/scripts\/[\w.-]+/g) ?? []) {
          expect(existsSync(join(ROOT, script)), script).toBe(true);
          const inContext = copied.some((c) => c === '.' || script.startsWith(c.replace(/\/?$/, '/')));
          expect(inContext, `${script} is copied in before RUN ${args}`).toBe(true);
          expect(makefile, `${script} is what make runs`).toContain(script);
          ran.push(script);
        }
      }
    }
    expect(ran).toEqual(['scripts/ensure-deps.sh', 'scripts/build-native.sh', 'scripts/build-web.ts']);
  });

  it('runs as a user who is not root, stops on SIGTERM, checks /api/health, keeps DATA_DIR in a volume', () => {
    const user = lastValue(stages, finalStage, 'USER');
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(lastValue(stages, finalStage, 'STOPSIGNAL')).toBe('SIGTERM');
    expect(healthCheckCommand(lastValue(stages, finalStage, 'HEALTHCHECK')!).join(' ')).toContain(
      '/api/health',
    );
    expect(imageEnv.DATA_DIR).toBeDefined();
    expect(execForm(lastValue(stages, finalStage, 'VOLUME')!)).toEqual([imageEnv.DATA_DIR]);
    // `make run`'s own command: node with tsx as its loader, main.ts.
    expect(command).toEqual(['node', '--import', 'tsx', 'main.ts']);
    // The base image's entrypoint (node's docker-entrypoint.sh) runs the command as it is; one of the
    // image's own would have to be a file of the repository.
    const entrypoint = lastValue(stages, finalStage, 'ENTRYPOINT');
    for (const script of scriptsOf([...(entrypoint ? execForm(entrypoint) : []), ...command]))
      expect(existsSync(join(ROOT, script)), script).toBe(true);
  });
});

describe.each(COMPOSE_FILES)('%s', (file) => {
  const compose: ComposeFile = readCompose(join(ROOT, file));
  const dir = dirname(join(ROOT, file));
  const services = Object.entries(compose.services);
  const declaredVolumes = Object.keys(compose.volumes ?? {});

  it('builds the repository image from a folder that has the Dockerfile', () => {
    const built = services.filter(([, s]) => s.build !== undefined);
    expect(built.length).toBeGreaterThan(0);
    for (const [name, service] of built) {
      const build = typeof service.build === 'string' ? { context: service.build } : service.build!;
      const context = resolve(dir, build.context);
      expect(context, `${name}: build context`).toBe(ROOT);
      expect(existsSync(join(context, build.dockerfile ?? 'Dockerfile')), `${name}: its Dockerfile`).toBe(
        true,
      );
    }
  });

  it("names in every command a script of the repository or a file mounted into the service's container", () => {
    for (const [name, service] of services) {
      const words = [...(service.entrypoint ?? []), ...(service.command ?? (service.build ? command : []))];
      if (service.build) {
        for (const script of scriptsOf(words))
          expect(existsSync(join(ROOT, script)), `${name}: ${script}`).toBe(true);
        continue;
      }
      const mounted = (service.volumes ?? []).map(parseVolume).filter((v) => v.kind === 'bind');
      for (const path of words.filter((w) => w.startsWith('/')))
        expect(
          mounted.map((m) => m.target),
          `${name}: ${path} is mounted`,
        ).toContain(path);
    }
  });

  it('mounts named volumes it declares, and files that exist', () => {
    for (const [name, service] of services) {
      for (const volume of (service.volumes ?? []).map(parseVolume)) {
        if (volume.kind === 'named')
          expect(declaredVolumes, `${name}: ${volume.source}`).toContain(volume.source);
        else expect(existsSync(resolve(dir, volume.source)), `${name}: ${volume.source}`).toBe(true);
      }
      for (const other of Object.keys(
        Array.isArray(service.depends_on)
          ? Object.fromEntries(service.depends_on.map((d) => [d, 1]))
          : (service.depends_on ?? {}),
      ))
        expect(Object.keys(compose.services), `${name} depends on ${other}`).toContain(other);
    }
  });

  it('gives the app an init as pid 1 and the 10 s it takes to stop', () => {
    for (const [name, service] of services.filter(([, s]) => s.build)) {
      expect(service.init, name).toBe(true);
      const [, seconds] = /^(\d+)s$/.exec(service.stop_grace_period ?? '') ?? [];
      expect(Number(seconds), `${name}: stop_grace_period`).toBeGreaterThan(10);
    }
  });

  it("keeps the app's data in a volume at the image's DATA_DIR", () => {
    for (const [name, service] of services.filter(([, s]) => s.build)) {
      expect(service.environment?.DATA_DIR ?? imageEnv.DATA_DIR, name).toBe(imageEnv.DATA_DIR);
      const targets = (service.volumes ?? []).map((v) => parseVolume(v).target);
      expect(targets, `${name}: a volume at DATA_DIR`).toContain(imageEnv.DATA_DIR);
    }
  });
});

describe('the two compose shapes', () => {
  it('single machine: one service, the image as it is (make run)', () => {
    const { services } = readCompose(join(ROOT, 'compose.yaml'));
    expect(Object.keys(services)).toHaveLength(1);
    expect(Object.values(services)[0]!.command).toBeUndefined();
  });

  it('scaled out: api replicas and daemons of the image, NATS with JetStream, sqld, nginx', () => {
    const kit = 'wrangler-free-deploy';
    const { services } = readCompose(join(ROOT, kit, 'compose.yaml'));
    expect(services.api?.command).toEqual(['node', '--import', 'tsx', 'api/main.ts']);
    expect(services.daemon?.command).toEqual(['node', '--import', 'tsx', 'daemon/main.ts']);
    for (const app of [services.api!, services.daemon!]) {
      expect(app.environment).toMatchObject({
        NATS_URL: 'nats://nats:4222',
        DATABASE_URL: 'http://libsql:8080',
      });
      expect(app.environment?.SERVICE_TOKEN).toBeDefined();
    }
    // The daemon has no HTTP: the image's health check is off for it.
    expect(services.daemon?.healthcheck?.disable).toBe(true);
    const natsConf = parseVolume(services.nats!.volumes![0]!).source;
    expect(readFileSync(join(ROOT, kit, natsConf), 'utf8')).toMatch(/^jetstream \{/m);
    expect(services.libsql?.image).toMatch(/libsql-server/);
    expect(services.proxy?.image).toMatch(/^nginx:/);
    expect(services.proxy?.volumes?.map((v) => parseVolume(v).source)).toContain(
      './reverse-proxy/compose-site.conf',
    );
  });

  it("proxies with nginx.conf's own location block", () => {
    const locationBlock = (path: string) => {
      const text = readFileSync(join(ROOT, path), 'utf8');
      return /^ {2}location \/ \{\n[\s\S]*?^ {2}\}$/m.exec(text)?.[0];
    };
    expect(locationBlock(COMPOSE_SITE)).toBeDefined();
    expect(locationBlock(COMPOSE_SITE)).toBe(locationBlock(KIT_SITE));
  });

  it.skipIf(!nginxInstalled())(
    "is a site nginx accepts (Debian's nginx, the replica's name as an address)",
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'tsmb-compose-site-'));
      try {
        // Debian's nginx (1.22) predates `resolve` in an open-source upstream (1.27.3, the image's 1.28 has
        // it) and cannot look up the container network's `api`; everything else is the file's text.
        const site = readFileSync(join(ROOT, COMPOSE_SITE), 'utf8')
          .replace('server api:3000 resolve', 'server 127.0.0.1:3000')
          .replace('listen 80;', 'listen 127.0.0.1:8080;');
        const conf = join(dir, 'nginx.conf');
        writeFileSync(
          conf,
          `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n${site}\n}\n`,
        );
        execFileSync('/usr/sbin/nginx', ['-t', '-p', dir, '-c', conf], { stdio: 'pipe' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

const isRoot = process.getuid?.() === 0;
if (!isRoot)
  console.warn(
    'container-image: the build replay is skipped: it needs root to run the steps as another user',
  );

describe.skipIf(!isRoot)('the image built and started without an engine', () => {
  /** A temporary root: the image's paths (WORKDIR, HOME, DATA_DIR) are made under it. */
  let prefix: string | undefined;
  let service: ChildProcess | undefined;

  afterAll(() => {
    if (service?.exitCode === null) service.kill('SIGKILL');
    // Half a gigabyte of packages and npm cache: removing it can take longer than a hook may on a
    // busy disk, and nothing waits for it, so it goes on after the suite.
    if (prefix) spawn('rm', ['-rf', prefix], { detached: true, stdio: 'ignore' }).unref();
  });

  /** Runs a command as the unprivileged user with exactly this environment; resolves with its end. */
  function runAsUser(words: string[], env: Record<string, string>, cwd: string) {
    const child = spawn(
      'setpriv',
      [`--reuid=${UNPRIVILEGED}`, `--regid=${UNPRIVILEGED}`, '--clear-groups', '--', ...words],
      { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    const ended = new Promise<{ code: number | null; output: () => string }>((done) =>
      child.once('exit', (code) => done({ code, output: () => output })),
    );
    return { child, ended, output: () => output };
  }

  it("builds with the Dockerfile's steps as an unprivileged user, then serves and stops as the image does", async () => {
    prefix = mkdtempSync(join(tmpdir(), 'tsmb-image-'));
    const app = join(prefix, workdir);
    const home = join(prefix, imageEnv.HOME!);
    const dataDir = join(prefix, imageEnv.DATA_DIR!);
    const head = execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    execFileSync('git', ['clone', '--quiet', '--no-checkout', ROOT, app]);
    execFileSync('git', ['-C', app, 'checkout', '--quiet', '--detach', head]);
    mkdirSync(home, { recursive: true });
    mkdirSync(dataDir, { recursive: true, mode: 0o750 });
    // npm's cache, so `npm ci` takes the packages from this machine (--prefer-offline); the user's own.
    const npmCache = join(prefix, 'npm-cache');
    const rootCache = join(
      execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim(),
      '_cacache',
    );
    if (existsSync(rootCache)) cpSync(rootCache, join(npmCache, '_cacache'), { recursive: true });
    execFileSync('chown', ['-R', `${UNPRIVILEGED}:${UNPRIVILEGED}`, prefix]);

    // The build stage's RUN steps but its Debian packages (this machine has them: make test-deps).
    const steps = buildStage.instructions
      .filter((i) => i.keyword === 'RUN' && !i.args.includes('apt-get'))
      .map((i) => i.args);
    expect(steps).toHaveLength(3);
    const buildEnv = {
      ...stageEnv(stages, buildStage),
      HOME: home,
      npm_config_cache: npmCache,
      npm_config_prefer_offline: 'true',
    };
    for (const step of steps) {
      const { code, output } = await runAsUser(['sh', '-c', step], buildEnv, app).ended;
      expect(code, `RUN ${step}:\n${output()}`).toBe(0);
    }
    // Only the runtime packages were installed, and the native parts this machine builds were built.
    expect(existsSync(join(app, 'node_modules', 'tsx'))).toBe(true);
    expect(existsSync(join(app, 'node_modules', 'vitest'))).toBe(false);
    // Every native part this machine builds for itself (make test-deps) is built in the clone too.
    const builtHere = existsSync(join(ROOT, 'build')) ? readdirSync(join(ROOT, 'build')) : [];
    expect(readdirSync(join(app, 'build'))).toEqual(
      expect.arrayContaining(builtHere.filter((f) => !f.endsWith('.new'))),
    );
    expect(existsSync(join(app, 'web', 'dist', 'index.html'))).toBe(true);

    // The image copies the built app as root: the service cannot write its own code.
    execFileSync('chown', ['-R', '0:0', app]);
    const port = await freePort();
    const runEnv = { ...imageEnv, HOME: home, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
    const running = runAsUser(command, runEnv, app);
    service = running.child;
    const health = await waitForHealth(`http://127.0.0.1:${port}/api/health`, running);
    expect(health).toMatchObject({ status: 'ok' });
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('assets/');
    expect(statSync(join(dataDir, 'bot.db')).uid).toBe(UNPRIVILEGED);

    const healthCheck = healthCheckCommand(lastValue(stages, finalStage, 'HEALTHCHECK')!);
    expect((await runAsUser(healthCheck, runEnv, app).ended).code).toBe(0);

    service.kill(lastValue(stages, finalStage, 'STOPSIGNAL') as NodeJS.Signals);
    const stopped = await Promise.race([
      running.ended,
      new Promise<null>((r) => setTimeout(() => r(null), 10_000)),
    ]);
    expect(stopped?.code, running.output()).toBe(0);
    expect((await runAsUser(healthCheck, runEnv, app).ended).code).not.toBe(0);
  }, 600_000);
});

/** Polls the health address until it answers 200 (its JSON) or the process ends or 90 s pass. */
async function waitForHealth(
  url: string,
  running: { ended: Promise<unknown>; child: ChildProcess; output(): string },
) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (running.child.exitCode !== null) throw new Error(`the service exited:\n${running.output()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return (await res.json()) as unknown;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no answer from ${url} within 90 s:\n${running.output()}`);
}
