/** The running version: package.json's, plus `git describe` when this is a git checkout. */
import { execFileSync } from 'node:child_process';
import packageJson from '../package.json' with { type: 'json' };

export function readVersion(): string {
  try {
    const described = execFileSync('git', ['describe', '--tags', '--always', '--dirty'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    })
      .toString()
      .trim();
    return described ? `${packageJson.version} (${described})` : packageJson.version;
  } catch {
    return packageJson.version;
  }
}
