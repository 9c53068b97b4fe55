import { useId } from 'react';

/** The shield-and-flame mark, inline so the header paints without another request. */
export function Logo({ className = 'size-10', title }: { className?: string; title?: string }) {
  const gradientId = useId();
  return (
    <svg
      viewBox="0 0 64 64"
      className={className}
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
    >
      {title && <title>{title}</title>}
      <defs>
        <linearGradient id={gradientId} x1="0" y1="1" x2="0" y2="0">
          <stop offset="0" stopColor="#dc2626" />
          <stop offset=".55" stopColor="#f97316" />
          <stop offset="1" stopColor="#fbbf24" />
        </linearGradient>
      </defs>
      <path
        d="M32 3 57 12v19c0 15-11 25-25 30C18 56 7 46 7 31V12Z"
        fill="#141210"
        stroke={`url(#${gradientId})`}
        strokeWidth="4"
        strokeLinejoin="round"
      />
      <path
        d="M32 13c4 8 12 12 10 25-1 7-5 11-10 12-5-1-10-5-10-12 0-6 4-9 5-14 2 4 4 5 5 7 1-5-1-11 0-18Z"
        fill={`url(#${gradientId})`}
      />
      <path d="M32 35c2 4 5 5 4 9-1 2-2 4-4 4s-4-1-4-4c0-3 3-4 4-9Z" fill="#fde68a" />
    </svg>
  );
}
