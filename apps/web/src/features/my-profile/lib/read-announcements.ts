// Which announcements a rider has opened: client-side only (the server keeps no read state), kept
// per account so two riders sharing a phone keep their own unread badges.
import { useCallback, useState } from 'react';
import { readStorage, writeStorage } from '../../../lib/storage';

const keyFor = (userId: string) => `readAnnouncements:${userId}`;

function load(userId: string): Set<string> {
  try {
    const parsed: unknown = JSON.parse(readStorage(keyFor(userId)) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

export function useReadAnnouncements(userId: string) {
  const [read, setRead] = useState<Set<string>>(() => load(userId));
  const markRead = useCallback(
    (id: string) => {
      setRead((prev) => {
        if (prev.has(id)) return prev;
        const next = new Set(prev).add(id);
        writeStorage(keyFor(userId), JSON.stringify([...next]));
        return next;
      });
    },
    [userId],
  );
  return { read, markRead };
}
