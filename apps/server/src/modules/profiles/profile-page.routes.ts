// A rider's public profile page (/user/{id}), rendered here per request with the web
// client's own React tree. The link is shared to spectators on phones with weak data: as the
// plain app shell its largest paint waited for the entry script, the screen's chunk and this
// API answer on a slow CPU (~3.9 s); rendered, it paints from the HTML, and the client
// hydrates it from the answer inlined in the page without asking for it again.
import { publicProfileQueryKey } from '@rally/shared/catalog/web-client';
import type { PublicProfile } from '@rally/shared/contracts/profiles';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { NotFoundError } from '../../lib/errors';
import { type PageRenderer, sendPage } from '../../lib/page-renderer';
import { canonicalUserId, publicProfileAnswer } from './profiles.service';

export async function profilePageRoutes(app: FastifyInstance, opts: { db: Db; renderer: PageRenderer }) {
  const { db, renderer } = opts;

  const handler = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const id = canonicalUserId(request.params.id);
    // Not a user id at all: the shell, whose client shows its usual "User not found".
    if (id === null) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    const [path = '', query] = request.url.split(/\?(.*)/s, 2);
    // One address per page: another spelling of the same id (capitals, percent-encoding, a
    // trailing slash) is sent to the canonical one, so it is rendered and cached once, under
    // the id, and not once per spelling (each would take a slot of the answer cache).
    const location = `/user/${id}`;
    if (path !== location) return reply.redirect(query === undefined ? location : `${location}?${query}`, 301);
    reply.header('cache-control', 'no-cache');
    let html: string;
    try {
      // Kept beside the profile's answer and dropped with it by the next write: a link shared
      // to a crowd is read and rendered once, not once per phone (a render is ~15-30 ms of the
      // event loop).
      html = await app.answerCache.get(`profile-page:${location}`, async () => {
        const answer = await publicProfileAnswer(app.answerCache, db, id);
        const profile = (JSON.parse(answer) as { data: PublicProfile }).data;
        return renderer.render(location, [{ queryKey: publicProfileQueryKey(id), data: profile }]);
      });
    } catch (err) {
      // Unknown, malformed or deactivated: the shell, whose client shows its usual "User not
      // found". Anything else too (the client renders the page as before), but logged.
      if (!(err instanceof NotFoundError))
        request.log.error({ err }, 'the public profile page could not be made; sent the app shell');
      return reply.sendFile('index.html');
    }
    return sendPage(request, reply.header('vary', 'accept-encoding'), html);
  };

  // A page, not part of the API's document.
  const route = { schema: { hide: true } };
  app.get<{ Params: { id: string } }>('/user/:id', route, handler);
  app.get<{ Params: { id: string } }>('/user/:id/', route, handler);
}
