// The inbox an address reaches, for counting what is sent to it (issue 41): the same person's
// inbox must not get a fresh allowance for every spelling of it.

/** Providers that ignore dots in the local part: f.irst.last@ and firstlast@ are one inbox. */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * `email` as the mailbox it reaches: lower-cased, the plus-tag dropped (name+anything@
 * arrives at name@ at every major provider), and at Gmail the dots dropped too and
 * googlemail.com read as gmail.com.
 */
export function normalisedMailbox(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) {
    local = local.replaceAll('.', '');
    domain = dotless;
  }
  return `${local}@${domain}`;
}
