// Profile pictures (spec/rider-site.md §7 Uploads, §8 image fetch): the signed-in route
// first, the public one when there is no token or the server answers 401/403; 404 means
// "no picture" and the default avatar shows.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { API_BASE, getAuthToken } from '../../../lib/api-client';
import { profileKeys } from './profile-api';

async function fetchProfileImage(userId: string): Promise<Blob | null> {
  const id = encodeURIComponent(userId);
  const token = getAuthToken();
  if (token) {
    const res = await fetch(`${API_BASE}/upload/profile-image/${id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (res.ok) return res.blob();
    if (res.status === 404) return null;
    if (res.status !== 401 && res.status !== 403) throw new Error(`Failed to fetch profile image: ${res.status}`);
  }
  const res = await fetch(`${API_BASE}/public/profile-image/${id}`);
  if (res.ok) return res.blob();
  if (res.status === 404) return null;
  throw new Error(`Failed to fetch profile image: ${res.status}`);
}

/** An object URL of a user's picture, or null while loading, when absent or on failure. */
export function useProfileImage(userId: string | null | undefined, enabled = true): string | null {
  const query = useQuery({
    queryKey: profileKeys.image(userId ?? ''),
    queryFn: () => fetchProfileImage(userId as string),
    enabled: enabled && !!userId,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const blob = query.data ?? null;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}
