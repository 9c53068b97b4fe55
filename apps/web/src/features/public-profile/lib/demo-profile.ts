// What /user shows without an id: a sample warrior, so visitors see what a profile looks
// like. Its fire and comments live only in the page.
import type { Comment, PublicProfile } from '@rally/shared/contracts/profiles';

export const DEMO_ID = 'demo';

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

export function demoProfile(): PublicProfile {
  return {
    id: DEMO_ID,
    firstName: 'Datu',
    lastName: 'Mangubat',
    kitName: 'DATU OF THE SOUTH',
    role: 'participant',
    riderNumber: 88,
    category: 'bagani',
    gender: 'male',
    bikeInfo: { model: 'Kawasaki Versys 650', category: 'bagani' },
    verificationStatus: 'verified',
    hasProfileImage: false,
    stats: { fires: 42, comments: 3 },
    createdAt: minutesAgo(60 * 24 * 30),
    lastStation: { name: 'Marilog', at: minutesAgo(35) },
  };
}

export function demoComments(): Comment[] {
  return [
    {
      id: 'demo-1',
      authorId: 'demo-a',
      author: 'AMIHAN THE BOLD',
      authorRank: 'participant',
      text: 'Bagani loop is no joke — you got this! 🔥',
      timestamp: minutesAgo(12),
    },
    {
      id: 'demo-2',
      authorId: 'demo-b',
      author: 'Lapu Kalipay',
      authorRank: 'marshall',
      text: 'See you at the Cagayan de Oro stop. Hydrate and ride safe.',
      timestamp: minutesAgo(60 * 5),
    },
    {
      id: 'demo-3',
      authorId: 'demo-c',
      author: 'KIDLAT OF THE SOUTH',
      authorRank: 'guest',
      text: 'Padayon, kapatid! Mindanao pride!',
      timestamp: minutesAgo(60 * 24 * 3),
    },
  ];
}
