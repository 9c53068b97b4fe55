// Writes the access log (DESIGN.md §12) for every staff answer: whatever a route under
// /api/admin returns is read, before it is serialised, for riders' sensitive fields
// (sensitive-reads.ts), and one line per rider is written before the answer leaves. Exports
// write theirs in exports.service.ts (their answer is a file).
import { isStaffRole } from '@rally/shared/permissions';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { recordAccess } from './data-access.service';
import { sensitiveReadsIn } from './sensitive-reads';

export function recordSensitiveReads(api: FastifyInstance, db: Db): void {
  api.addHook('preSerialization', async (request, reply, payload) => {
    const auth = request.auth;
    if (!auth || !isStaffRole(auth.role) || reply.statusCode >= 300 || !request.url.startsWith('/api/admin/'))
      return payload;
    const reads = sensitiveReadsIn(payload);
    if (reads.unnamed.size > 0)
      request.log.error({ kinds: [...reads.unnamed] }, 'a staff answer carries sensitive fields with no rider to name');
    try {
      const staff = actorOf(auth);
      await recordAccess(
        db,
        { staffId: staff.id, staffName: staff.name, ip: request.ip },
        `${request.method} ${request.routeOptions.url}`,
        reads,
      );
    } catch (error) {
      // The answer still goes: a marshal reading an SOS rider's blood type must get it even
      // when the log cannot be written; the failure is on the server's log for the operator.
      request.log.error({ err: error }, 'the access log could not be written');
    }
    return payload;
  });
}
