import { SESSION_SEED_KEY } from '@rally/shared/catalog/web-client';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app';
import { preloadScreen } from './app/router';
import { hasStoredSession, type User } from './lib/auth';
import { seededAnswer } from './lib/query-seed';
import { readStoredUser } from './lib/storage';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

preloadScreen(window.location.pathname);
// My Profile, rendered by the server for the rider whose session cookie came with the request,
// is adopted only by a device that holds that rider's session (the server sets the cookie with
// the session and clears it on sign-out; a cookie left by anything else does not count): otherwise
// the page is drawn afresh and the stored session, if any, checked as on any other page.
const rendered = seededAnswer(SESSION_SEED_KEY) as User | undefined;
const session = rendered && hasStoredSession() && readStoredUser()?.id === rendered.id ? rendered : undefined;
if (container.firstElementChild && rendered && !session) container.replaceChildren();
const app = <App Router={BrowserRouter} session={session} />;
// The prerendered /register is the form a signed-out visitor sees; with a stored session the
// app first checks it (a spinner, then the profile), so that markup is not this client's to adopt.
// A rider's public profile (/user/{id}) is everyone's to see: it is hydrated signed out as the
// server drew it, and shows the visitor's fire and comment controls once the session is checked.
if (container.firstElementChild && /^\/register\/?$/.test(window.location.pathname) && hasStoredSession()) {
  container.replaceChildren();
}
if (container.firstElementChild) {
  // "/" and "/register" are served as landing.html and register.html, the build's prerender
  // of those pages (scripts/prerender.mjs), /user/{id} rendered by the server with the
  // rider's profile and /me with the signed-in rider's (their answers inlined, see
  // lib/query-seed.ts): their markup is already
  // painted, so React adopts those nodes instead of replacing them (a repaint that would push
  // the largest paint back). As a transition the
  // hydration yields to the browser every few milliseconds rather than blocking a phone's
  // main thread in one long task; a click on a part not hydrated yet hydrates it first.
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  // Every other path gets the empty shell.
  createRoot(container).render(app);
}
