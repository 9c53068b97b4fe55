// The incidents spreadsheet (the Reports tab): every incident of the edition, oldest first,
// with the rider, what happened, where they were, and who acknowledged, took and resolved
// it when. The same visibility rule as the incidents list (incidents/incidents.service.ts): an incident
// of an account the viewer may not see is not in the sheet, and staff accounts the viewer may
// not see are named like deleted ones.
import { INCIDENT_KIND_LABELS, INCIDENT_STATUS_LABELS } from '@rally/shared/catalog/event-day';
import { and, asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { entries } from '../../../db/schema/entries';
import { incidents } from '../../../db/schema/incidents';
import { users } from '../../../db/schema/users';
import { inEdition } from '../../../lib/edition-of';
import { fullName } from '../../../lib/sql-text';
import { canSee, visibleAccounts } from '../../../lib/visibility';
import { defineExport } from '../export-definition';
import { categoryCell } from './rider-cells';

const rider = alias(users, 'rider');
// The rider's entry in the incidents' edition: their number and category that year.
const riderEntry = alias(entries, 'rider_entry');
const acknowledger = alias(users, 'acknowledger');
const assignee = alias(users, 'assignee');
const resolver = alias(users, 'resolver');

export const incidentsExport = defineExport({
  name: 'incidents',
  title: 'Incidents',
  description: 'Every SOS and phoned-in incident: rider, kind, position, last station and who handled it when.',
  columns: [
    { key: 'openedAt', header: 'Opened (Manila)', width: 18 },
    { key: 'riderNumber', header: 'Rider #', width: 8 },
    { key: 'kitName', header: 'Kit Name', width: 22 },
    { key: 'rider', header: 'Rider', width: 24 },
    { key: 'category', header: 'Category', width: 14 },
    { key: 'kind', header: 'Kind', width: 12 },
    { key: 'source', header: 'Source', width: 10 },
    { key: 'note', header: 'Note', width: 30 },
    { key: 'lat', header: 'Latitude', width: 11 },
    { key: 'lng', header: 'Longitude', width: 11 },
    { key: 'accuracy', header: 'Accuracy (m)', width: 10 },
    { key: 'lastStation', header: 'Last Station', width: 20 },
    { key: 'status', header: 'Status', width: 12 },
    { key: 'acknowledgedBy', header: 'Acknowledged By', width: 20 },
    { key: 'acknowledgedAt', header: 'Acknowledged (Manila)', width: 18 },
    { key: 'assignedTo', header: 'Assigned To', width: 20 },
    { key: 'resolvedBy', header: 'Resolved By', width: 20 },
    { key: 'resolvedAt', header: 'Resolved (Manila)', width: 18 },
    { key: 'resolution', header: 'Resolution', width: 30 },
  ],
  async rows(db, viewer, edition) {
    const rows = await db
      .select({
        incident: incidents,
        riderNumber: riderEntry.riderNumber,
        kitName: rider.kitName,
        firstName: rider.firstName,
        lastName: rider.lastName,
        category: riderEntry.category,
        ackFirst: acknowledger.firstName,
        ackLast: acknowledger.lastName,
        ackRole: acknowledger.role,
        asgFirst: assignee.firstName,
        asgLast: assignee.lastName,
        asgRole: assignee.role,
        resFirst: resolver.firstName,
        resLast: resolver.lastName,
        resRole: resolver.role,
      })
      .from(incidents)
      .innerJoin(rider, eq(rider.id, incidents.riderId))
      .leftJoin(riderEntry, and(eq(riderEntry.userId, rider.id), inEdition(riderEntry.editionId, edition)))
      .leftJoin(acknowledger, eq(acknowledger.id, incidents.acknowledgedBy))
      .leftJoin(assignee, eq(assignee.id, incidents.assignedTo))
      .leftJoin(resolver, eq(resolver.id, incidents.resolvedBy))
      .where(and(inEdition(incidents.editionId, edition), visibleAccounts(viewer.role, rider.role)))
      .orderBy(asc(incidents.createdAt), asc(incidents.id));
    const staffName = (first: string | null, last: string | null, role: string | null) =>
      first !== null && canSee(viewer.role, role) ? fullName(first, last) : '';
    return rows.map((r) => ({
      // Not a column: whose row it is, for the access log (modules/data-access).
      riderId: r.incident.riderId,
      openedAt: r.incident.createdAt,
      riderNumber: r.riderNumber,
      kitName: r.kitName,
      rider: fullName(r.firstName, r.lastName),
      category: categoryCell(r.category),
      kind: INCIDENT_KIND_LABELS[r.incident.kind],
      source: r.incident.source === 'rider' ? 'SOS' : 'Staff',
      note: r.incident.note ?? '',
      lat: r.incident.lat,
      lng: r.incident.lng,
      accuracy: r.incident.accuracy === null ? null : Math.round(r.incident.accuracy),
      lastStation: r.incident.lastStationName ?? '',
      status: INCIDENT_STATUS_LABELS[r.incident.status],
      acknowledgedBy: staffName(r.ackFirst, r.ackLast, r.ackRole),
      acknowledgedAt: r.incident.acknowledgedAt,
      assignedTo: staffName(r.asgFirst, r.asgLast, r.asgRole),
      resolvedBy: staffName(r.resFirst, r.resLast, r.resRole),
      resolvedAt: r.incident.resolvedAt,
      resolution: r.incident.resolutionNote ?? '',
    }));
  },
});
