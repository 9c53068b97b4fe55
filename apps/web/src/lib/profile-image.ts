// Profile pictures: the signed-in route first (it also serves inactive accounts'
// pictures), the public one (active accounts only) when there is no token or the server
// answers 401/403; 404 means "no picture" (null) and the default avatar shows.
// `size` asks for a smaller copy (PROFILE_IMAGE_SIZES); without it, the picture as stored.
import type { ProfileImageSize } from '@rally/shared/catalog/registration';
import { API_BASE, getAuthToken } from './api-client';

export async function fetchProfileImage(userId: string, size?: ProfileImageSize): Promise<Blob | null> {
  const id = encodeURIComponent(userId);
  const query = size ? `?size=${size}` : '';
  const token = getAuthToken();
  if (token) {
    const res = await fetch(`${API_BASE}/upload/profile-image/${id}${query}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (res.ok) return res.blob();
    if (res.status === 404) return null;
    if (res.status !== 401 && res.status !== 403) throw new Error(`Failed to fetch profile image: ${res.status}`);
  }
  const res = await fetch(`${API_BASE}/public/profile-image/${id}${query}`);
  if (res.ok) return res.blob();
  if (res.status === 404) return null;
  throw new Error(`Failed to fetch profile image: ${res.status}`);
}
