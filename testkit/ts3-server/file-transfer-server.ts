/**
 * The TCP side of file transfer: a client connects, writes the ftkey it was given, then the file bytes.
 * Only uploads (what the bot does for its avatar) are implemented.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';

export interface ExpectedUpload {
  size: number;
  onDone: (data: Buffer) => void;
}

/** Length of the ASCII key the client writes first. */
const KEY_LENGTH = 16;

export class FileTransferServer {
  private readonly expected = new Map<string, ExpectedUpload>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static start(host: string): Promise<FileTransferServer> {
    return new Promise((resolve, reject) => {
      let self: FileTransferServer | undefined;
      const server = createServer((socket) => self?.accept(socket));
      server.once('error', reject);
      server.listen(0, host, () => {
        const address = server.address();
        if (!address || typeof address === 'string') return reject(new Error('no TCP port'));
        self = new FileTransferServer(server, address.port);
        resolve(self);
      });
    });
  }

  /** Registers an upload and returns the key the client must send. */
  expect(upload: ExpectedUpload): string {
    const key = randomBytes(KEY_LENGTH / 2).toString('hex');
    this.expected.set(key, upload);
    return key;
  }

  private accept(socket: import('node:net').Socket): void {
    const parts: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => parts.push(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('end', () => {
      const all = Buffer.concat(parts);
      const key = all.toString('ascii', 0, KEY_LENGTH);
      const upload = this.expected.get(key);
      const data = all.subarray(KEY_LENGTH);
      if (upload && data.length === upload.size) {
        this.expected.delete(key);
        upload.onDone(data);
      }
      socket.end();
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
