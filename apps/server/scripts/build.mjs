// The server as plain JavaScript: src/server.ts and src/cli.ts bundled by esbuild into
// dist/ (ES modules, Node 20 syntax, source maps for readable stack traces). Packages from
// node_modules stay imports, loaded by Node as they are; the workspace's own TypeScript
// (@rally/shared) is bundled in, since Node cannot load it.
//
//   npm run build -w @rally/server
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stamp } from '../../../scripts/freshness.mjs';

const serverRoot = fileURLToPath(new URL('../', import.meta.url));
const outdir = path.join(serverRoot, 'dist');

/**
 * Modules find files beside their sources through import.meta.url (the migrations, the
 * web build). Once bundled, import.meta.url is dist/<entry>.js; this rewrites it, in each
 * source file, to the URL that file had, computed from where the bundle is at run time,
 * so the same relative paths hold from src/ and from dist/.
 */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\/apps\/server\/src\/.*\.ts$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`),
        loader: 'ts',
      };
    });
  },
};

/** Everything from node_modules stays an import, except the workspace's TypeScript package. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@rally/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function buildServer() {
  const esbuild = await import('esbuild');
  const t0 = performance.now();
  // No clearing of dist/ first: a server already running from it may still load a chunk of
  // its own build later; chunk names carry a content hash, so the old ones stay valid.
  const result = await esbuild.build({
    entryPoints: { server: path.join(serverRoot, 'src/server.ts'), cli: path.join(serverRoot, 'src/cli.ts') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    // Stack traces name the source file and line; the sources themselves are in the checkout.
    sourcesContent: false,
    // Every output file directly in dist/: the import.meta.url rewrite below is relative to it.
    chunkNames: '[name]-[hash]',
    plugins: [sourceUrls, externalPackages],
    logLevel: 'warning',
    metafile: true,
  });
  // The packages the server imports at start, for run.mjs to load before it turns source
  // maps on: Node then keeps the maps of dist/ only, not those of every package that ships
  // one (~8 MB of heap).
  const packages = new Set();
  for (const output of Object.values(result.metafile.outputs))
    for (const imported of output.imports)
      if (imported.external && imported.kind === 'import-statement' && !imported.path.startsWith('node:'))
        packages.add(imported.path);
  writeFileSync(path.join(outdir, 'preload.json'), `${JSON.stringify([...packages].sort(), null, 2)}\n`);
  stamp('server');
  return performance.now() - t0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const ms = await buildServer();
  console.log(`apps/server/dist built in ${Math.round(ms)} ms`);
}
