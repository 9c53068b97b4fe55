// Preloaded into a server by the memory benchmark (`node --import ./memory-probe.mjs …`):
// on SIGUSR2 it prints one `MEMORY_PROBE {json}` line to stderr with where the process's
// memory is, and, when MEMORY_PROBE_SNAPSHOT names a directory, writes a heap snapshot
// there. Plain JavaScript so it loads the same way into the built server and under tsx.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';

// PGlite's heap is a WebAssembly.Memory it makes itself: remember every one made, weakly,
// so its size can be read without a handle on the PGlite instance.
const memories = new Set();
const NativeMemory = WebAssembly.Memory;
class TrackedMemory extends NativeMemory {
  constructor(descriptor) {
    super(descriptor);
    memories.add(new WeakRef(this));
  }
}
WebAssembly.Memory = TrackedMemory;

const MiB = 2 ** 20;
const mib = (bytes) => Math.round((10 * bytes) / MiB) / 10;

/** kB fields of a /proc file (`Name:   123 kB`), in MiB. */
function procKb(file, names) {
  const out = {};
  try {
    const text = readFileSync(file, 'utf8');
    for (const name of names) {
      const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
      if (m) out[name] = Math.round((10 * Number(m[1])) / 1024) / 10;
    }
  } catch {
    // not Linux: the process.memoryUsage() figures are still there
  }
  return out;
}

let snapshots = 0;
process.on('SIGUSR2', () => {
  let wasm = 0;
  let wasmCount = 0;
  for (const ref of memories) {
    const m = ref.deref();
    if (!m) {
      memories.delete(ref);
      continue;
    }
    wasm += m.buffer.byteLength;
    wasmCount++;
  }
  const mu = process.memoryUsage();
  const status = procKb('/proc/self/status', ['VmRSS', 'VmHWM', 'RssAnon', 'RssFile']);
  const report = {
    rss: mib(mu.rss),
    peakRss: status.VmHWM ?? null,
    rssAnon: status.RssAnon ?? null,
    rssFile: status.RssFile ?? null,
    heapTotal: mib(mu.heapTotal),
    heapUsed: mib(mu.heapUsed),
    external: mib(mu.external),
    arrayBuffers: mib(mu.arrayBuffers),
    wasmMemory: mib(wasm),
    wasmMemories: wasmCount,
  };
  const dir = process.env.MEMORY_PROBE_SNAPSHOT;
  if (dir) report.snapshot = v8.writeHeapSnapshot(path.join(dir, `heap-${process.pid}-${++snapshots}.heapsnapshot`));
  process.stderr.write(`MEMORY_PROBE ${JSON.stringify(report)}\n`);
});
