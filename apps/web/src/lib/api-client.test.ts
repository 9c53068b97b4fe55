// The typed client keeps what the hand-written one did: the token, JSON declared on every
// call and {} for a body-less write, the server's message in ApiError, text bodies as text,
// the 15 s timeout and the caller's own abort. The page's origin is given per call: Node
// has no document to resolve '/api/...' against.
import { REQUEST_TIMEOUT_MS } from '@rally/shared/catalog/web-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, client } from './api-client';

const origin = { baseUrl: 'http://rally.test' };
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

let sent: Request[] = [];
function answer(make: (request: Request, signal: AbortSignal) => Promise<Response> | Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request, init: RequestInit) => {
      sent.push(request);
      return make(request, init.signal as AbortSignal);
    }),
  );
}

/** A server that never answers: like fetch, gives up when the signal aborts (or already has). */
function neverUntilAborted(_request: Request, signal: AbortSignal): Promise<Response> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason));
  });
}

beforeEach(() => {
  sent = [];
  vi.stubGlobal('localStorage', { getItem: () => 'the-token' });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the API client', () => {
  it('sends the token and JSON, and {} for a write without a body', async () => {
    answer(() => json({ success: true, data: { hasGivenFire: true, totalFires: 3 } }));
    const fire = await call(client.POST('/api/users/{id}/fire', { ...origin, params: { path: { id: 'u 1' } } }));
    expect(fire.data.totalFires).toBe(3);
    const [request] = sent;
    expect(request?.url).toBe('http://rally.test/api/users/u%201/fire');
    expect(request?.headers.get('authorization')).toBe('Bearer the-token');
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(await request?.text()).toBe('{}');
  });

  it('sends a GET with its query and without a body', async () => {
    answer(() => json({ success: true, data: { activities: [], hasMore: false, total: 0 } }));
    await call(client.GET('/api/admin/activities', { ...origin, params: { query: { limit: 5, offset: 10 } } }));
    expect(sent[0]?.url).toBe('http://rally.test/api/admin/activities?limit=5&offset=10');
    expect(sent[0]?.method).toBe('GET');
    expect(sent[0]?.headers.get('content-type')).toBe('application/json');
  });

  it('sends a JSON body as given', async () => {
    answer(() => json({ success: true, message: 'Password reset' }));
    await call(client.POST('/api/auth/reset-password', { ...origin, body: { token: 't', newPassword: 'p' } }));
    expect(await sent[0]?.json()).toEqual({ token: 't', newPassword: 'p' });
  });

  it("throws ApiError with the server's message, status and body", async () => {
    const body = { success: false, message: 'Rider number 7 is taken', code: 'TAKEN' };
    answer(() => json(body, 409));
    const failure = await call(client.GET('/api/my/rider-code', origin)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ message: 'Rider number 7 is taken', status: 409, body });
  });

  it("reads a body that is not JSON as text, failing with 'HTTP error! status: N'", async () => {
    answer(() => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    const failure = await call(client.GET('/api/my/rider-code', origin)).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      message: 'HTTP error! status: 502',
      status: 502,
      body: '<html>Bad gateway</html>',
    });

    answer(() => new Response('fine', { status: 200, headers: { 'content-type': 'text/plain' } }));
    expect(await call(client.GET('/api/my/rider-code', origin))).toBe('fine');
  });

  it("gives up after the timeout with 'Request timeout'", async () => {
    vi.useFakeTimers();
    answer(neverUntilAborted);
    const pending = call(client.GET('/api/my/rider-code', origin)).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(await pending).toEqual(new Error('Request timeout'));
  });

  it("stops on the caller's signal, which is not a timeout", async () => {
    answer(neverUntilAborted);
    const controller = new AbortController();
    const pending = call(client.GET('/api/my/rider-code', { ...origin, signal: controller.signal })).catch(
      (error: unknown) => error,
    );
    controller.abort();
    const failure = await pending;
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).not.toBe('Request timeout');
  });
});
