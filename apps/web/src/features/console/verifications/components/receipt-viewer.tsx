// The receipt at the verification desk: images fit the box and zoom and rotate (scrolling
// when larger than the box); PDFs open from a link in the browser's own viewer, never
// framed, because the console's CSP allows no frames and receipts are served sandboxed.
import type { FileState } from '@rally/shared/catalog/receipts';
import { useQuery } from '@tanstack/react-query';
import { RotateCw, ZoomIn, ZoomOut } from 'lucide-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { Spinner } from '../../../../components/ui/spinner';
import { useObjectUrl } from '../../../../lib/use-object-url';
import { MissingFileError, receiptQuery } from '../../api/file-api';
import { PdfReceiptLink, ReceiptDownloadLink } from '../../components/receipt-download-link';

export const ZOOM_STEPS: readonly number[] = [1, 1.5, 2, 3, 4];
const MAX_ZOOM = 4;

/** The zoom one step in or out from the current one. */
export function zoomStep(zoom: number, direction: 1 | -1): number {
  const at = ZOOM_STEPS.indexOf(zoom);
  return ZOOM_STEPS[Math.min(Math.max(at + direction, 0), ZOOM_STEPS.length - 1)] ?? 1;
}

export function ReceiptViewer({
  userId,
  name,
  hasReceipt,
  fileStatus = 'ready',
  zoom,
  rotation,
  onZoom,
  onRotate,
}: {
  userId: string;
  name: string;
  hasReceipt: boolean;
  /** A file still in the queue is served to nobody: nothing is fetched until it is processed. */
  fileStatus?: FileState;
  zoom: number;
  rotation: number;
  onZoom: (direction: 1 | -1) => void;
  onRotate: () => void;
}) {
  const query = useQuery({ ...receiptQuery(userId), enabled: hasReceipt && fileStatus === 'ready' });
  const blob = query.data ?? null;
  const url = useObjectUrl(blob);
  const isPdf = blob?.type === 'application/pdf';

  let body: React.ReactNode;
  if (hasReceipt && fileStatus === 'processing') {
    body = (
      <div
        className="flex h-full flex-col items-center justify-center gap-3 p-6 text-center"
        data-testid="receipt-processing"
      >
        <Spinner label="Processing…" />
        <p className="text-sm text-ash">The receipt is being prepared; it shows here once processed.</p>
      </div>
    );
  } else if (hasReceipt && fileStatus === 'failed') {
    body = (
      <p role="alert" className="p-6 text-center font-bold text-ember-400" data-testid="receipt-failed">
        The upload could not be processed; ask the rider to upload again
      </p>
    );
  } else if (!hasReceipt || query.error instanceof MissingFileError) {
    body = <p className="p-6 text-center text-ash">No payment receipt available</p>;
  } else if (query.isError) {
    body = (
      <p role="alert" className="p-6 text-center text-ember-400">
        {query.error.message || 'Failed to load payment receipt image'}
      </p>
    );
  } else if (!url) {
    body = (
      <div className="flex h-full items-center justify-center">
        <Spinner label="Loading receipt..." />
      </div>
    );
  } else if (isPdf) {
    body = <PdfReceiptLink url={url} className="h-full justify-center" />;
  } else {
    body = <FittedImage key={url} url={url} alt={`Payment receipt of ${name}`} zoom={zoom} rotation={rotation} />;
  }

  const canTransform = !!url && !isPdf;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Receipt view">
        <button
          type="button"
          onClick={() => onZoom(-1)}
          disabled={!canTransform || zoom <= 1}
          className={buttonStyles('secondary', 'md', 'min-h-10 px-3')}
          aria-label="Zoom out"
          aria-keyshortcuts="-"
        >
          <ZoomOut className="size-5" aria-hidden="true" />
        </button>
        <span className="min-w-12 text-center font-mono text-sm text-ash" aria-live="polite">
          {Math.round(zoom * 100)}%
        </span>
        <button
          type="button"
          onClick={() => onZoom(1)}
          disabled={!canTransform || zoom >= MAX_ZOOM}
          className={buttonStyles('secondary', 'md', 'min-h-10 px-3')}
          aria-label="Zoom in"
          aria-keyshortcuts="+"
        >
          <ZoomIn className="size-5" aria-hidden="true" />
        </button>
        <button
          type="button"
          onClick={onRotate}
          disabled={!canTransform}
          className={buttonStyles('secondary', 'md', 'min-h-10 px-3')}
          aria-label={`Rotate (now ${rotation}°)`}
          aria-keyshortcuts="Shift+R"
        >
          <RotateCw className="size-5" aria-hidden="true" />
        </button>
        {url && <ReceiptDownloadLink url={url} blob={blob} name={name} className="ml-auto min-h-10 px-3" />}
      </div>
      <div className="h-[45dvh] overflow-auto rounded-md border border-ink-700 bg-ink-950 sm:h-[62dvh]">{body}</div>
    </div>
  );
}

/**
 * Sized from the box and the image's own size rather than with a CSS transform alone, so a
 * zoomed or turned receipt scrolls to every edge instead of being clipped.
 */
function FittedImage({ url, alt, zoom, rotation }: { url: string; alt: string; zoom: number; rotation: number }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState<{ w: number; h: number } | null>(null);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [failed, setFailed] = useState(false);

  useLayoutEffect(() => {
    const el = boxRef.current?.parentElement;
    if (!el) return;
    const measure = () => setBox({ w: el.clientWidth - 16, h: el.clientHeight - 16 });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  if (failed) {
    return (
      <p role="alert" className="p-6 text-center text-ember-400">
        Failed to display receipt image
      </p>
    );
  }
  const turned = rotation % 180 !== 0;
  let frame: React.CSSProperties = { width: '100%', height: '100%' };
  let image: React.CSSProperties = { maxWidth: '100%', maxHeight: '100%', visibility: natural ? 'visible' : 'hidden' };
  if (box && natural && box.w > 0 && box.h > 0) {
    const [rw, rh] = turned ? [natural.h, natural.w] : [natural.w, natural.h];
    const scale = Math.min(box.w / rw, box.h / rh) * zoom;
    frame = { width: rw * scale, height: rh * scale };
    image = {
      position: 'absolute',
      left: '50%',
      top: '50%',
      width: natural.w * scale,
      height: natural.h * scale,
      maxWidth: 'none',
      transform: `translate(-50%, -50%) rotate(${rotation}deg)`,
    };
  }
  return (
    <div ref={boxRef} className="flex min-h-full min-w-full p-2">
      <div className="relative m-auto shrink-0" style={frame} data-testid="receipt-frame">
        <img
          src={url}
          alt={alt}
          style={image}
          className="rounded"
          data-zoom={zoom}
          data-rotation={rotation}
          onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
          onError={() => setFailed(true)}
        />
      </div>
    </div>
  );
}
