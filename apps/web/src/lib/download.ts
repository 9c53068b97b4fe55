// Downloads of files the API answers to signed-in staff only (exports, sticker sheets): a
// plain link cannot carry the bearer token, so the file is fetched, then handed to the
// browser as a download under the name the server gave it.
import { API_BASE, ApiError, getAuthToken } from './api-client';
import { viewedEdition, withViewedEdition } from './viewed-edition';

export interface DownloadedFile {
  fileName: string;
  /** The response's headers, for counts the server adds (x-export-rows, x-sticker-count). */
  headers: Headers;
}

/** `attachment; filename="masterlist-2026-11-25.csv"` → the name, else the fallback. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const match = disposition ? /filename="([^"]+)"/.exec(disposition) : null;
  return match?.[1] ?? fallback;
}

export async function downloadFile(
  path: string,
  fallbackName: string,
  init: { method?: 'GET' | 'POST'; body?: unknown } = {},
): Promise<DownloadedFile> {
  const token = getAuthToken();
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  // A past edition's export while the console browses it (lib/viewed-edition.ts).
  const address = viewedEdition() ? withViewedEdition(`${API_BASE}${path}`, location.origin) : `${API_BASE}${path}`;
  const res = await fetch(address, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => null);
    const message =
      body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { message: string }).message
        : `HTTP error! status: ${res.status}`;
    throw new ApiError(message, res.status, body);
  }
  const blob = await res.blob();
  const fileName = attachmentName(res.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the next tasks; free the memory a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { fileName, headers: res.headers };
}
