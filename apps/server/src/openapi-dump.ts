// Prints the OpenAPI document (as served at /api/docs/json) without a running server or
// a database on disk: `npm run api:doc -w @rally/server > openapi.json`.
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';

export async function openapiDocument(): Promise<unknown> {
  const database = await openDatabase({});
  try {
    const app = await buildApp({
      config: loadConfig({ WEB_DIST: '/nonexistent', PUBLIC_URL: 'http://localhost:3000' }),
      database,
      logger: false,
    });
    await app.ready();
    const document = app.swagger();
    await app.close();
    return document;
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await openapiDocument(), null, 2)}\n`);
}
