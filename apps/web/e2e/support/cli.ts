// Operator commands for the tests' set-up, carried out by this worker's e2e server: sent over
// its control socket, as the CLI sends them to a running server (the e2e servers open the
// socket on either database, for the test clock). Not through the CLI itself: a CLI process
// costs ~1.5 s of CPU to start, in a suite that makes a hundred calls; the CLI has tests of
// its own (apps/server/src/modules/operator). The calls stay synchronous for the specs: a
// worker thread talks to the socket while this thread waits on a shared flag.
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { Role } from '@rally/shared/catalog/accounts';
import { controlSocketPath } from '../../../server/src/lib/data-dir-lock';
import { PASSWORD, uniqueEmail } from './env';

const SOCKET_CLIENT = `
const { workerData } = require('node:worker_threads');
const net = require('node:net');
const { port, flag } = workerData;
port.on('message', ({ socket, command, args }) => {
  const answer = (result) => {
    port.postMessage(result);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  let buffer = '';
  const conn = net.createConnection(socket);
  conn.setEncoding('utf8');
  conn.setTimeout(120000, () => conn.destroy(new Error('the e2e server did not answer in time')));
  conn.on('connect', () => conn.write(JSON.stringify({ command, args }) + String.fromCharCode(10)));
  conn.on('data', (chunk) => { buffer += chunk; });
  conn.on('end', () => {
    try { answer(JSON.parse(buffer)); } catch { answer({ exitCode: 1, output: 'unreadable answer: ' + buffer }); }
  });
  conn.on('error', (err) => answer({ exitCode: 1, output: err.message }));
});
`;

let bridge: { port: MessageChannel['port1']; flag: Int32Array } | undefined;

function socketBridge() {
  if (bridge) return bridge;
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(SOCKET_CLIENT, { eval: true, workerData: { port: port2, flag }, transferList: [port2] });
  worker.unref();
  bridge = { port: port1, flag };
  return bridge;
}

/** Runs one operator command on this worker's server; answers what it printed, or throws it. */
export function cli(args: string[]): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('no e2e server in this worker (the server fixture sets E2E_DATA_DIR)');
  const [command = '', ...rest] = args;
  const named: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) named[(rest[i] ?? '').replace(/^--/, '')] = rest[i + 1] ?? '';
  const { port, flag } = socketBridge();
  Atomics.store(flag, 0, 0);
  port.postMessage({ socket: controlSocketPath(dataDir), command, args: named });
  if (Atomics.wait(flag, 0, 0, 130_000) === 'timed-out') throw new Error(`${command}: no answer from the e2e server`);
  const result = receiveMessageOnPort(port)?.message as { exitCode: number; output: string } | undefined;
  if (!result) throw new Error(`${command}: no answer from the e2e server`);
  if (result.exitCode !== 0) throw new Error(`${command} failed: ${result.output}`);
  return result.output;
}

export interface CreatedUser {
  email: string;
  password: string;
  role: Role;
}

/** Creates an active, verified account of the given role. */
export function createUser(role: Role, email = uniqueEmail(role)): CreatedUser {
  cli([
    'create-user',
    '--email',
    email,
    '--password',
    PASSWORD,
    '--role',
    role,
    '--first-name',
    'Test',
    '--last-name',
    role,
  ]);
  return { email, password: PASSWORD, role };
}

/** A one-time reset link; the CLI prints it as its last line. */
export function resetLink(email: string): string {
  const lines = cli(['reset-link', '--email', email])
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const link = lines.at(-1) ?? '';
  if (!/^https?:\/\//.test(link)) throw new Error(`reset-link printed no link:\n${lines.join('\n')}`);
  return link;
}
