// Runs the real server and CLI as child processes, for the tests of the run contract.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverEntry = fileURLToPath(new URL('../server.ts', import.meta.url));
const cliEntry = fileURLToPath(new URL('../cli.ts', import.meta.url));

export interface RunningServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the server on a free port (PORT=0) and resolves once it answers its health check. */
export function startServer(env: Record<string, string>, port = 0): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    // info level: the listening line tells which port PORT=0 picked (requests are not logged at info).
    env: { ...process.env, ...env, LOG_LEVEL: 'info', PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  let url = port ? `http://127.0.0.1:${port}` : '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`server exited: ${out}`));
      if (!url) url = /Rally platform on (http:\/\/[0-9.:]+)/.exec(out)?.[1] ?? '';
      try {
        if (!url) throw new Error('not listening yet');
        const res = await fetch(`${url}/api/health`);
        if (res.ok) {
          return resolve({
            url,
            child,
            output: () => out,
            stop: async (signal = 'SIGTERM') => {
              if (child.exitCode === null) child.kill(signal);
              return exited;
            },
          });
        }
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        return reject(new Error(`server did not start: ${out}`));
      }
      setTimeout(poll, 200);
    };
    poll();
  });
}

export function runNode(
  entry: 'server' | 'cli',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry === 'cli' ? cliEntry : serverEntry, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
