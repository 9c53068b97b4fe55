// The staff member behind a write, as the activity log names them. Shared by the staff
// console's modules (kit tracking, ID cards, resets, announcements).
import type { AuthContext } from './authorize';
import { fullName } from './sql-text';

export interface Actor {
  id: string;
  name: string;
}

export const actorOf = (auth: AuthContext): Actor => ({
  id: auth.userId,
  name: fullName(auth.firstName, auth.lastName),
});
