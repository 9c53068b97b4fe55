// A user's picture as an object URL for <img>; the default avatar shows while it is null.
import type { ProfileImageSize } from '@rally/shared/catalog/registration';
import { useQuery } from '@tanstack/react-query';
import { fetchProfileImage } from '../../../lib/profile-image';
import { useObjectUrl } from '../../../lib/use-object-url';
import { profileKeys } from './profile-api';

/** An object URL of a user's picture, or null while loading, when absent or on failure. */
export function useProfileImage(
  userId: string | null | undefined,
  enabled: boolean,
  size: ProfileImageSize,
): string | null {
  const query = useQuery({
    queryKey: profileKeys.image(userId ?? '', size),
    queryFn: () => fetchProfileImage(userId as string, size),
    enabled: enabled && !!userId,
    staleTime: 5 * 60_000,
    retry: false,
  });
  return useObjectUrl(query.data);
}
