// The one way the web client talks to the API: base /api,
// JSON content type, Bearer token from storage, 15 s timeout, JSON-or-text bodies and
// the API's error messages.
import { REQUEST_TIMEOUT_MS, STORAGE_KEYS } from '@rally/shared/catalog';

export const API_BASE = '/api';

/** A failed response. `message` is the server's message or 'HTTP error! status: N'. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export function getAuthToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.token);
  } catch {
    // Storage can throw in private modes or when disabled; treat as signed out.
    return null;
  }
}

function failureMessage(body: unknown, status: number): string {
  if (body && typeof body === 'object' && 'message' in body) {
    const message = (body as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return `HTTP error! status: ${status}`;
}

function parseBody(text: string, contentType: string | null): unknown {
  if (contentType?.includes('application/json') && text !== '') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...options.headers };
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const method = options.method ?? 'GET';
  // Every call declares JSON; a body-less POST/PUT/PATCH/DELETE sends {} because the
  // server refuses an empty body under that content type.
  const body = options.body !== undefined ? JSON.stringify(options.body) : method === 'GET' ? undefined : '{}';

  try {
    const response = await fetch(`${API_BASE}${path}`, { method, headers, body, signal: controller.signal });
    const parsed = parseBody(await response.text(), response.headers.get('content-type'));
    if (!response.ok) throw new ApiError(failureMessage(parsed, response.status), response.status, parsed);
    return parsed as T;
  } catch (error) {
    if (timedOut) throw new Error('Request timeout');
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

export const api = {
  get: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

export interface UploadOptions {
  method?: 'POST' | 'PUT';
  /** Called with 0-100 as the request body goes out. */
  onProgress?: (percent: number) => void;
  /** Sent beside the token (the registration's answer to a security check). */
  headers?: Record<string, string>;
}

/**
 * Multipart upload through XMLHttpRequest, because fetch cannot report upload progress.
 * The 15 s timeout restarts on every progress event: a 10 MB receipt on rural mobile
 * data can take longer than 15 s in total while still moving, and only a stalled
 * upload should fail.
 */
export function apiUpload<T = unknown>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const armTimeout = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        xhr.abort();
        reject(new Error('Request timeout'));
      }, REQUEST_TIMEOUT_MS);
    };

    xhr.open(options.method ?? 'POST', `${API_BASE}${path}`);
    // No Content-Type here: the browser must set the multipart boundary itself.
    const token = getAuthToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);

    xhr.upload.onprogress = (event) => {
      armTimeout();
      if (event.lengthComputable && options.onProgress) {
        options.onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    };
    xhr.upload.onload = () => {
      options.onProgress?.(100);
      armTimeout();
    };
    xhr.onload = () => {
      clearTimeout(timer);
      const body = parseBody(xhr.responseText, xhr.getResponseHeader('content-type'));
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiError(failureMessage(body, xhr.status), xhr.status, body));
    };
    xhr.onerror = () => {
      clearTimeout(timer);
      reject(new TypeError('Failed to fetch'));
    };
    armTimeout();
    xhr.send(form);
  });
}

/** True for errors thrown when the request never got an answer (offline, DNS, refused). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}
