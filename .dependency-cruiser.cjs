// The server's import graph, kept one-way (scripts/check-structure.mjs runs it in the lint
// phase of `npm test`). The layers, from the ground up: db and config; lib; the modules (each
// module's routes over its service and presenter); app.ts and the entry points. An import
// may only go down. Type-only imports count: they tie the files together all the same.
// Tests and their helpers are left out: a test may reach anywhere.
const SERVER = '^apps/server/src/';
const MODULES = `${SERVER}modules/`;
const ENTRY_POINTS = `${SERVER}(app|server|cli|openapi-dump|openapi-types)\\.ts$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other, directly or around a loop: make the dependency one-way.',
      from: { path: SERVER },
      to: { circular: true },
    },
    {
      name: 'lib-and-db-below-modules',
      severity: 'error',
      comment: 'lib/ and db/ serve every module; what they need from a module belongs in lib/ (or db/).',
      from: { path: `${SERVER}(lib|db)/` },
      to: { path: MODULES },
    },
    {
      name: 'db-below-lib',
      severity: 'error',
      comment: 'db/ is the ground floor: the schema and the client need nothing of lib/.',
      from: { path: `${SERVER}db/` },
      to: { path: `${SERVER}lib/` },
    },
    {
      name: 'entry-points-on-top',
      severity: 'error',
      comment: 'app.ts and the entry points assemble the rest; nothing below imports them.',
      from: { path: `${SERVER}(lib|db|modules)/` },
      to: { path: ENTRY_POINTS },
    },
    {
      name: 'services-below-routes',
      severity: 'error',
      comment: 'Routes call services, never the reverse: no service imports routes (its own or another module’s).',
      from: { path: `${MODULES}.+\\.service\\.ts$` },
      to: { path: `${MODULES}.+\\.routes\\.ts$` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.ts$', `${SERVER}test/`] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
