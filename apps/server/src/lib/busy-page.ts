// What a browser navigating to a page gets when the page limit trips: a page, never the API's
// JSON envelope (a rider saw `{"success":false,…}` in place of My Profile). Plain markup
// styled by the build's /busy.css (files are never limited; the site's CSP allows no inline
// style or script), readable without it. The page reloads itself once the wait is over (a
// meta refresh, which CSP allows).

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The 429 page; `seconds` is the Retry-After the limiter set. */
export function busyPage(seconds: number, path: string): string {
  const wait = Math.max(1, Math.ceil(seconds));
  const href = escapeHtml(path.startsWith('/') && !path.startsWith('//') ? path : '/');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${wait}">
<meta name="robots" content="noindex">
<link rel="stylesheet" href="/busy.css">
<title>Busy: try again in a moment</title>
</head>
<body>
<main>
<h1>Too many page loads from your network</h1>
<p>Many riders are opening the site from the same network right now. This page will load again by itself in ${wait} second${wait === 1 ? '' : 's'}.</p>
<p><a href="${href}">Try again now</a></p>
</main>
</body>
</html>
`;
}
