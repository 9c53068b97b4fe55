// A local-only channel (a Unix socket readable by the server's user) through which the
// operator CLI asks a running server to carry out a command on its embedded database.
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import net from 'node:net';

export interface ControlResult {
  exitCode: number;
  output: string;
}
export type ControlHandler = (command: string, args: Record<string, string>) => Promise<ControlResult>;

export async function startControlServer(socketPath: string, handler: ControlHandler): Promise<() => Promise<void>> {
  if (existsSync(socketPath)) unlinkSync(socketPath);
  const server = net.createServer((conn) => {
    let buffer = '';
    conn.setEncoding('utf8');
    conn.on('data', async (chunk) => {
      buffer += chunk;
      if (buffer.length > 64 * 1024) return conn.destroy();
      const nl = buffer.indexOf('\n');
      if (nl < 0) return;
      let result: ControlResult;
      try {
        const { command, args } = JSON.parse(buffer.slice(0, nl)) as { command: string; args: Record<string, string> };
        result = await handler(command, args ?? {});
      } catch (err) {
        result = { exitCode: 1, output: `Error: ${(err as Error).message}` };
      }
      conn.end(`${JSON.stringify(result)}\n`);
    });
    conn.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      try {
        unlinkSync(socketPath);
      } catch {
        // already removed
      }
    });
}

export function sendControlCommand(
  socketPath: string,
  command: string,
  args: Record<string, string>,
  timeoutMs = 120_000,
): Promise<ControlResult> {
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socketPath);
    let buffer = '';
    conn.setEncoding('utf8');
    conn.setTimeout(timeoutMs, () => conn.destroy(new Error('The running server did not answer in time')));
    conn.on('connect', () => conn.write(`${JSON.stringify({ command, args })}\n`));
    conn.on('data', (chunk) => {
      buffer += chunk;
    });
    conn.on('end', () => {
      try {
        resolve(JSON.parse(buffer) as ControlResult);
      } catch {
        reject(new Error('The running server sent an unreadable answer'));
      }
    });
    conn.on('error', reject);
  });
}
