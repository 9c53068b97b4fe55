// The published document is a valid OpenAPI 3 document generated from the route table:
// security and permissions as the server enforces them, multipart bodies as readMultipart
// reads them, error statuses from access and inputs; the committed generated types match
// it, and the typed client built on them works against a real server.
import { readFileSync } from 'node:fs';
import { PERMISSIONS } from '@rally/shared/permissions';
import { OpenAPIBackend } from 'openapi-backend';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  login,
  pendingVerifications,
  publicProfile,
  rallyClient,
  register,
  takenNumbers,
} from '../../openapi/rally-client';
import { generateApiTypes, TYPES_PATH } from '../openapi-types';
import { buildTestApp, type TestApp } from '../test/build-app';
import { jpeg, registrationFields, STRONG_PASSWORD, staff } from '../test/factories';
import { present } from '../test/present';
import { describeAccess } from './authorize';

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  requestBody?: {
    required?: boolean;
    content: Record<string, { schema: Record<string, unknown>; encoding?: unknown }>;
  };
  responses: Record<string, { content?: Record<string, unknown> }>;
  'x-access'?: string;
  'x-permission'?: string;
  'x-roles'?: string[];
}
type Document = { paths: Record<string, Record<string, Operation>> };

const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  beforeAll(async () => {
    t = await buildTestApp('pglite');
    doc = t.app.swagger() as unknown as Document;
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3 document with an operation id on every operation', async () => {
    const api = new OpenAPIBackend({ definition: structuredClone(doc) as never, strict: true, validate: true });
    await api.init();
    expect(() => api.validateDefinition()).not.toThrow();
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares every route of the route table with the access the server enforces', () => {
    expect(t.app.routeTable.length).toBeGreaterThan(50);
    for (const route of t.app.routeTable) {
      const op = doc.paths[openapiPath(route.url)]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.url}`).toBeDefined();
      if (!op) continue;
      const where = `${route.method} ${route.url}`;
      expect(op['x-access'], where).toBe(describeAccess(route.access));
      if (route.access === 'public') {
        expect(op.security, where).toEqual([]);
        // A public call answers 401 only for wrong credentials, never for a missing token:
        // a wrong password, or an SMS webhook without the gateway's signature.
        if (where !== 'POST /api/auth/login' && where !== 'POST /api/sms/inbound')
          expect(Object.keys(op.responses), where).not.toContain('401');
      } else {
        expect(op.security, where).toEqual([{ bearer: [] }]);
        expect(Object.keys(op.responses), where).toContain('401');
      }
      if (typeof route.access === 'object' && 'permission' in route.access) {
        expect(op['x-permission'], where).toBe(route.access.permission);
        expect(op['x-roles'], where).toEqual([...PERMISSIONS[route.access.permission]]);
        expect(Object.keys(op.responses), where).toContain('403');
      }
      // Every error answer is the envelope.
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const schema = (response.content?.['application/json'] as { schema?: { properties?: object } })?.schema;
        expect(Object.keys(schema?.properties ?? {}), `${where} ${status}`).toEqual(['success', 'message', 'code']);
      }
    }
  });

  it('declares the multipart bodies with their binary parts and limits', () => {
    const registration = doc.paths['/api/auth/register-with-uploads']?.post?.requestBody;
    const media = registration?.content['multipart/form-data'];
    expect(media).toBeDefined();
    expect(media?.schema).toMatchObject({
      type: 'object',
      properties: {
        email: { type: 'string' },
        riderNumber: { type: 'integer' },
        profileImage: { type: 'string', format: 'binary', maxLength: 10 * 1024 * 1024 },
        paymentReceipt: { type: 'string', format: 'binary', maxLength: 10 * 1024 * 1024 },
      },
    });
    expect(media?.schema.required).toEqual(expect.arrayContaining(['email', 'password', 'riderNumber', 'category']));
    expect(media?.encoding).toEqual({
      profileImage: { contentType: 'image/jpeg, image/png, image/gif' },
      paymentReceipt: { contentType: 'image/jpeg, image/png, image/gif, application/pdf' },
    });
    const upload = doc.paths['/api/upload/profile-image']?.post?.requestBody?.content['multipart/form-data'];
    expect(upload?.schema.required).toEqual(['profileImage']);
    const resubmit = doc.paths['/api/my/verification/receipt']?.post?.requestBody?.content['multipart/form-data'];
    expect(resubmit?.schema.required).toEqual(['paymentReceipt']);
    expect(resubmit?.encoding).toEqual({
      paymentReceipt: { contentType: 'image/jpeg, image/png, image/gif, application/pdf' },
    });
    const receipt = doc.paths['/api/upload/payment-receipt/{id}']?.get;
    expect(Object.keys(receipt?.responses['200']?.content ?? {})).toEqual([
      'image/jpeg',
      'image/png',
      'application/pdf',
    ]);
    expect(receipt?.responses).toHaveProperty('304');
  });

  it('matches the committed generated types (npm run api:types)', async () => {
    expect(await generateApiTypes(doc)).toBe(readFileSync(TYPES_PATH, 'utf8'));
  });

  it('drives the server through the typed client generated from it', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const anonymous = rallyClient(base);
    const fields = registrationFields();
    const photo = new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' });
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    const { user } = await register(
      anonymous,
      {
        firstName: 'Amihan',
        lastName: 'Typed',
        email: fields.email ?? '',
        password: STRONG_PASSWORD,
        phoneNumber: '09171234567',
        category: 'bagani',
        paymentMethod: 'gcash',
        riderNumber: Number(fields.riderNumber),
        tshirtSize: 'L',
        finisherSleeveSize: 'M',
        vestSize: 'XL',
      },
      { profileImage: photo, paymentReceipt: new Blob([new Uint8Array(png)], { type: 'image/png' }) },
    );
    expect(user.email).toBe(fields.email);
    expect(user.hasProfileImage).toBe(true);
    expect(await takenNumbers(anonymous)).toContain(user.riderNumber);
    expect((await publicProfile(anonymous, user.id)).id).toBe(user.id);
    await expect(login(anonymous, present(fields.email), 'Wrong2Password')).rejects.toThrow(/^401 /);
    expect(await login(anonymous, present(fields.email), STRONG_PASSWORD)).toMatch(/\S{16,}/);

    const marshall = await staff(t.app, t.database.db, 'marshall');
    const queue = await pendingVerifications(rallyClient(base, marshall.token));
    expect(JSON.stringify(queue)).toContain(user.id);

    // The analytics figures, typed by the generated document: the rider above counts as pending.
    const officer = await staff(t.app, t.database.db, 'officer');
    const figures = await rallyClient(base, officer.token).GET('/api/admin/analytics');
    expect(figures.error).toBeUndefined();
    expect(figures.data?.data.status.pending).toBeGreaterThanOrEqual(1);
    expect(figures.data?.data.categories.find((c) => c.category === 'bagani')?.riders).toBeGreaterThanOrEqual(1);
  });

  it('documents the analytics figures for the roles that see the dashboard', () => {
    const op = doc.paths['/api/admin/analytics']?.get;
    expect(op?.['x-permission']).toBe('view_dashboard');
    const body = op?.responses['200']?.content?.['application/json'] as
      | { schema: { properties: { data: { properties: Record<string, unknown> } } } }
      | undefined;
    expect(Object.keys(body?.schema.properties.data.properties ?? {})).toEqual([
      'riders',
      'registrations_per_day',
      'status',
      'categories',
      'routes',
      'clubs',
      'payment_methods',
      'sizes',
      'registrations_by_edition',
      'turnaround',
    ]);
  });
});
