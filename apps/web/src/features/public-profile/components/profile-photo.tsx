import { useState } from 'react';
import { API_BASE } from '../../../lib/api-client';
import { DefaultAvatar } from './profile-avatar';

interface ProfilePhotoProps {
  userId: string;
  name: string;
  /** False when the profile says there is no picture (or it is the demo). */
  hasImage: boolean;
  className?: string;
}

/**
 * The rider's picture at the head of their public profile: a plain <img> of the public URL
 * rather than ProfileAvatar's fetched blob. The server-rendered page names it in its HTML,
 * so a phone fetches it alongside the page instead of after the app's scripts: it is the
 * largest thing the page paints; its `display` copy, a fraction of the stored bytes.
 */
export function ProfilePhoto({ userId, name, hasImage, className = 'size-12' }: ProfilePhotoProps) {
  const [broken, setBroken] = useState(false);
  return (
    <span
      className={`relative inline-flex shrink-0 overflow-hidden rounded-full border-2 border-fire-500 bg-ink-800 ${className}`}
    >
      {hasImage && !broken ? (
        <img
          src={`${API_BASE}/public/profile-image/${encodeURIComponent(userId)}?size=display`}
          alt={name}
          className="size-full object-cover"
          onError={() => setBroken(true)}
        />
      ) : (
        <DefaultAvatar label={`${name} has no profile picture`} />
      )}
    </span>
  );
}
