// Per-page metadata through React 19's hoisting of <title> and <meta> into <head>.
import { useSyncExternalStore } from 'react';

export const SITE_NAME = 'Mindanao Warriors Endurance Rally';
const PREVIEW_IMAGE = '/og-image.png';

interface PageMetaProps {
  title: string;
  description: string;
  /** Path of the page; defaults to the current one. */
  path?: string;
}

// The origin never changes while the page lives.
const noSubscription = () => () => {};
const browserOrigin = () => window.location.origin;
// The build prerenders the landing page without knowing the host it will be served from:
// its URLs are relative there, and the hydrating client starts from the same value before
// switching to absolute ones (no hydration mismatch).
const prerenderOrigin = () => '';

export function PageMeta({ title, description, path }: PageMetaProps) {
  const origin = useSyncExternalStore(noSubscription, browserOrigin, prerenderOrigin);
  const url = `${origin}${path ?? (typeof window === 'undefined' ? '/' : window.location.pathname)}`;
  const fullTitle = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  const image = `${origin}${PREVIEW_IMAGE}`;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={SITE_NAME} />
      <meta property="og:url" content={url} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:image" content={image} />
      <meta property="og:image:width" content="1200" />
      <meta property="og:image:height" content="630" />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:url" content={url} />
      <meta name="twitter:title" content={fullTitle} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image} />
    </>
  );
}
