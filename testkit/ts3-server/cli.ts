/**
 * `npm run ts3-test-server -- --port <p> --root-secret <hex> --license ts3|ts6`: runs the test server and prints one JSON
 * line per event. Point a bot at it with TS3_LICENSE_ROOT set to the `rootPublicKey` of the `listening` line.
 */
import { parseArgs } from 'node:util';
import { LICENSE_SHAPES, type LicenseShape } from './license-signer';
import { type TestServerEvents, Ts3TestServer } from './ts3-test-server';

const USAGE =
  'usage: ts3-test-server [--host 127.0.0.1] [--port 9987] [--root-secret <64 hex chars>] [--server-password <pw>] [--license ts3|ts6]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '9987' },
    'root-secret': { type: 'string' },
    'server-password': { type: 'string' },
    license: { type: 'string', default: 'ts3' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});
if (values.help) fail('');
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`bad --port ${values.port}`);
const secretHex = values['root-secret'];
if (secretHex !== undefined && !/^[0-9a-fA-F]{64}$/.test(secretHex))
  fail('--root-secret must be 32 bytes as hex');
const license = values.license as LicenseShape;
if (!LICENSE_SHAPES.includes(license)) fail(`--license must be one of ${LICENSE_SHAPES.join(', ')}`);

const server = await Ts3TestServer.start({
  host: values.host,
  port,
  rootSecret: secretHex === undefined ? undefined : Buffer.from(secretHex, 'hex'),
  serverPassword: values['server-password'],
  license,
  voiceStatsIntervalMs: 1000,
});

const print = (event: string, data: object) =>
  process.stdout.write(`${JSON.stringify({ event, ...data })}\n`);
const events: (keyof TestServerEvents)[] = [
  'listening',
  'clientConnected',
  'textMessage',
  'clientUpdated',
  'clientMoved',
  'channelEdited',
  'avatarUploaded',
  'voiceStats',
  'clientDisconnected',
];
for (const name of events) server.on(name, (data: object) => print(name, data));

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
