import type { ProfileImageSize } from '@rally/shared/catalog/registration';
import { useId, useState } from 'react';
import { useProfileImage } from '../api/profile-image';

interface ProfileAvatarProps {
  userId: string | null | undefined;
  name: string;
  /** False when the profile says there is no picture: skips the request. */
  hasImage?: boolean;
  className?: string;
  /** `display` where the avatar is drawn larger than 64 CSS px (a card's head). */
  size?: ProfileImageSize;
}

/** A rider's round picture, or the default avatar while none is loaded. */
export function ProfileAvatar({
  userId,
  name,
  hasImage = true,
  className = 'size-12',
  size = 'thumb',
}: ProfileAvatarProps) {
  const url = useProfileImage(userId, hasImage && userId !== 'demo', size);
  const [broken, setBroken] = useState<string | null>(null);
  const shown = url && broken !== url ? url : null;
  return (
    <span
      className={`relative inline-flex shrink-0 overflow-hidden rounded-full border-2 border-fire-500 bg-ink-800 ${className}`}
    >
      {shown ? (
        <img src={shown} alt={name} className="size-full object-cover" onError={() => setBroken(shown)} />
      ) : (
        <DefaultAvatar label={`${name} has no profile picture`} />
      )}
    </span>
  );
}

/** A helmeted rider silhouette on embers. */
export function DefaultAvatar({ label }: { label: string }) {
  const gradientId = useId();
  return (
    <svg viewBox="0 0 64 64" className="size-full" role="img" aria-label={label}>
      <defs>
        <radialGradient id={gradientId} cx="50%" cy="30%" r="75%">
          <stop offset="0" stopColor="#4a4239" />
          <stop offset="1" stopColor="#151210" />
        </radialGradient>
      </defs>
      <rect width="64" height="64" fill={`url(#${gradientId})`} />
      <path d="M32 14c-9 0-15 6-15 14v6h30v-6c0-8-6-14-15-14Z" fill="#f97316" />
      <path d="M19 27h26v5H19z" fill="#0c0a09" opacity=".75" />
      <path d="M12 64c1-12 9-19 20-19s19 7 20 19Z" fill="#c9bfb2" />
      <path d="M26 36h12v8a6 6 0 0 1-12 0Z" fill="#c9bfb2" />
    </svg>
  );
}
