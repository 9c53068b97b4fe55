// The SMS a rider's phone prefills when its SOS cannot reach the server. Kept apart from the
// settings contract (packages/shared/src/contracts/settings.ts), whose zod schemas would
// otherwise ride along with My Profile's first screen (~25 KB gzipped) for one line of text.
export function sosSmsText(input: {
  riderNumber: number | null;
  name: string;
  kind: string;
  position: { lat: number; lng: number; accuracy: number } | null;
}): string {
  const who = `${input.riderNumber !== null ? `Rider #${input.riderNumber} ` : ''}${input.name}`;
  const where = input.position
    ? `at ${input.position.lat.toFixed(5)},${input.position.lng.toFixed(5)} (±${Math.round(input.position.accuracy)} m) https://maps.google.com/?q=${input.position.lat.toFixed(5)},${input.position.lng.toFixed(5)}`
    : 'position unknown';
  return `SOS ${input.kind.toUpperCase()}: ${who} ${where}`;
}
