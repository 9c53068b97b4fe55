// The loader of the rendered pages (landing.html and register.html, and the server's
// /user/{id} built from dist/ssr/shell.html; see prerender.mjs, which copies this file into
// the build as assets/landing-boot-<hash>.js). The page arrives rendered; the
// app's scripts only hydrate it, so they wait, inert, in <template id="app-scripts"> until
// the page has painted: a phone on a slow network spends its bandwidth and CPU on the first
// paint, not on 90 KB of JavaScript that changes nothing on screen.
const template = document.getElementById('app-scripts');
let started = false;

function start() {
  if (started || !(template instanceof HTMLTemplateElement)) return;
  started = true;
  // Module preloads first, so the entry's imports download alongside it.
  const sources = [...template.content.children].sort(
    (a, b) => Number(b.localName === 'link') - Number(a.localName === 'link'),
  );
  for (const source of sources) {
    // Created, not cloned: a created <script> runs once inserted.
    const element = document.createElement(source.localName);
    for (const { name, value } of source.attributes) element.setAttribute(name, value);
    document.head.append(element);
  }
}

const afterPaint = () => setTimeout(start, 0);
if (typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    afterPaint();
  }).observe({ type: 'paint', buffered: true });
} else {
  requestAnimationFrame(afterPaint);
}
// Should no paint ever be reported (a tab opened in the background paints once shown),
// the page still comes alive.
setTimeout(start, 5000);
