// What the services that cause messages need to know (which channels are on, the links'
// base, the escalation period): built once per app by the messages plugin and passed down
// by the routes, so a service writes rows only for channels that can send them.
import type { MessageChannel } from '@rally/shared/catalog/messages';

export interface Messenger {
  /** Channels whose settings are given: rows are written for these only. */
  readonly on: ReadonlySet<MessageChannel>;
  readonly publicUrl: string;
  readonly escalateAfterS: number;
}

/** No channel on: what a service gets when it runs outside the app (seed commands, benchmarks). */
export const SILENT_MESSENGER: Messenger = { on: new Set(), publicUrl: 'http://localhost:3000', escalateAfterS: 120 };
