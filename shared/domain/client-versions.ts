/**
 * The TeamSpeak client versions a bot can report, by id. A server checks `client_version_sign`, TeamSpeak's
 * own Ed25519 signature over platform + version, so only published triples work; these are taken from the
 * tsdeclarations project's Versions.csv (its newest entry, 6.0.0-beta2, was added 2025-01-21). In one
 * place because the API validates a bot's choice and the daemon sends it.
 */
export interface ClientVersion {
  version: string;
  platform: string;
  sign: string;
}

export const CLIENT_VERSIONS = {
  // TeamSpeak's own placeholder build: what tsclientlib and other bots send, accepted by TeamSpeak 3 servers.
  '3.x-windows': {
    version: '3.?.? [Build: 5680278000]',
    platform: 'Windows',
    sign: 'DX5NIYLvfJEUjuIbCidnoeozxIDRRkpq3I9vVMBmE9L2qnekOoBzSenkzsg2lC9CMv8K5hkEzhr2TYUYSwUXCg==',
  },
  '3.x-linux': {
    version: '3.?.? [Build: 5680278000]',
    platform: 'Linux',
    sign: 'Hjd+N58Gv3ENhoKmGYy2bNRBsNNgm5kpiaQWxOj5HN2DXttG6REjymSwJtpJ8muC2gSwRuZi0R+8Laan5ts5CQ==',
  },
  '3.6.3-windows': {
    version: '3.6.3 [Build: 1701166057]',
    platform: 'Windows',
    sign: 'ML3yE6pV0QGyhc8o7k1bgqDSj+5gZIQFMjBNhWJ6L0FtJwniBq8l1wivx3DzgVVCvyRbzfg8MsdV/rjl5sHNCw==',
  },
  '5.0.0-beta77-windows': {
    version: '5.0.0-beta77 [Build: 1702382332]',
    platform: 'Windows',
    sign: 'Ee6DzP16MUXpdKWjiSY0NGb4thN22/Ks0hwNcaMrWoaadgkM6c5477X0IbGFWVjzTWfjFTEad5noYLUPDWSgCQ==',
  },
  '6.0.0-beta2-windows': {
    version: '6.0.0-beta2 [Build: 1737468425]',
    platform: 'Windows',
    sign: 'b5mySiqYAd4Lv5TZNflW+G5Gk8y7Woo9YnJfHRjmzhUyMdGfF1O7fSGJzmx2Hpe/PKaY2aDuKKD6lSxbLYlKCw==',
  },
} as const satisfies Record<string, ClientVersion>;

export type ClientVersionId = keyof typeof CLIENT_VERSIONS;

/** `auto` picks by the server's license chain when connecting (see daemon/ts3/client-version.ts). */
export const AUTOMATIC_CLIENT_VERSION = 'auto';
export const CLIENT_VERSION_CHOICES = [
  AUTOMATIC_CLIENT_VERSION,
  ...(Object.keys(CLIENT_VERSIONS) as ClientVersionId[]),
] as const;
export type ClientVersionChoice = (typeof CLIENT_VERSION_CHOICES)[number];

/** The triple for a stored choice; undefined for `auto` (and for a value no longer in the table). */
export function clientVersionOf(choice: string): ClientVersion | undefined {
  return Object.hasOwn(CLIENT_VERSIONS, choice) ? CLIENT_VERSIONS[choice as ClientVersionId] : undefined;
}
