// How riders are named on the rider side.

/** Kit name, else the first name upper-cased, else WARRIOR. */
export function kitNameOf(p: { kitName?: string | null; firstName?: string | null }): string {
  return p.kitName?.trim() || p.firstName?.trim().toUpperCase() || 'WARRIOR';
}

/** Full name, else 'Mysterious Rider'. */
export function fullNameOf(p: { firstName?: string | null; lastName?: string | null }): string {
  return `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim() || 'Mysterious Rider';
}
