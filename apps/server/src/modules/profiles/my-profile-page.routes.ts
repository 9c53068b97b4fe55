// My Profile (/me, and its old address /profile), rendered here for the rider whose page
// cookie comes with the request (lib/session-cookie.ts: set by the server, bound to the
// rider's session, for rider accounts only). As the app shell, a phone on slow
// mobile data painted the page only after the scripts, then the session check, then the
// screen (~3.2 s to the largest paint); rendered, the page paints from the HTML with the
// rider's details and the client hydrates it from the answers inlined beside it. Without a
// valid cookie (signed out, the session ended, not verified yet, a staff account) the request
// gets the plain shell, whose client checks the stored session as it always has; a cookie that
// opens nothing is cleared with it.
import { MY_PROFILE_QUERY_KEYS, SESSION_SEED_KEY } from '@rally/shared/catalog/web-client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { type PageRenderer, sendPage } from '../../lib/page-renderer';
import { clearPageCookies, findPageSession, readPageCredential, rendersOwnPage } from '../../lib/session-cookie';
import { loadUserRecord } from '../auth/user-record.presenter';
import { gearSizes, tshirtStatus } from '../rider-kit/rider-kit.service';
import { readEventSettings } from '../settings/settings.service';

export async function myProfilePageRoutes(app: FastifyInstance, opts: { db: Db; renderer: PageRenderer }) {
  const { db, renderer } = opts;

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    // The answer differs per signed-in rider and holds their details: never stored on the way.
    reply.header('cache-control', 'private, no-store').header('vary', 'cookie, accept-encoding');
    const { credential, clear } = readPageCredential(request);
    const session = credential ? await findPageSession(db, credential) : null;
    if (clear || (credential && !session)) clearPageCookies(request, reply);
    // The client's guard sends anyone else elsewhere (/login, /verify): its shell does that.
    if (
      session?.status !== 'active' ||
      session.verificationStatus !== 'verified' ||
      // An account promoted to staff since its cookie was set.
      !rendersOwnPage(session.role)
    )
      return reply.sendFile('index.html');
    const location = request.url.split('?', 1)[0] ?? '/me';
    let html: string;
    try {
      const [user, tshirt, gear, eventSettings] = await Promise.all([
        loadUserRecord(db, session.userId),
        tshirtStatus(db, session.userId),
        gearSizes(db, session.userId),
        readEventSettings(db),
      ]);
      html = await renderer.render(location, [
        { queryKey: SESSION_SEED_KEY, data: user },
        { queryKey: MY_PROFILE_QUERY_KEYS.tshirt, data: tshirt },
        { queryKey: MY_PROFILE_QUERY_KEYS.gear, data: gear },
        { queryKey: MY_PROFILE_QUERY_KEYS.eventSettings, data: eventSettings },
      ]);
    } catch (err) {
      // The client draws the page as before; the failure is for the operator to see.
      request.log.error({ err }, 'My Profile could not be rendered; sent the app shell');
      return reply.sendFile('index.html');
    }
    return sendPage(request, reply, html);
  };

  // Pages, not part of the API's document.
  const route = { schema: { hide: true } };
  for (const path of ['/me', '/me/', '/profile', '/profile/']) app.get(path, route, handler);
}
