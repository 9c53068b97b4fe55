// A user's picture as an object URL for <img>; the default avatar shows while it is null.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { fetchProfileImage } from '../../../lib/profile-image';
import { profileKeys } from './profile-api';

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
