// The QR sticker page (/admin/print-qr/{userId}), opened in a
// new tab from the QR Sticker Generator. The sticker is drawn on the client: qrcode.react
// renders the code off-screen and it is copied onto a 500x500 canvas with the rider's
// details, which is what the download saves.

import { useQuery } from '@tanstack/react-query';
import { Download, Info, X } from 'lucide-react';
import { QRCodeCanvas } from 'qrcode.react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Logo } from '../../../components/ui/logo';
import { SITE_NAME } from '../../../components/ui/page-meta';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { RIDER_QR_STYLE } from '../../../lib/rider-qr';
import { fetchCardDetail, idCardKeys } from '../id-cards/api/id-cards-api';
import {
  drawSticker,
  loadImage,
  QR_SIZE,
  STICKER_SIZE,
  stickerFileName,
  stickerTexts,
} from '../id-cards/components/sticker-drawing';

/** The server's message, else 'User not found' for a 404, else the generic failure. */
function failureText(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { message?: unknown } | null;
    if (body && typeof body === 'object' && typeof body.message === 'string' && body.message.trim())
      return body.message;
    if (error.status === 404) return 'User not found';
  }
  return 'Failed to load user data';
}

export default function PrintQrPage() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const detail = useQuery({
    queryKey: idCardKeys.detail(userId),
    queryFn: () => fetchCardDetail(userId),
    enabled: userId !== '',
    retry: false,
  });
  const qrRef = useRef<HTMLCanvasElement>(null);
  const stickerRef = useRef<HTMLCanvasElement>(null);
  const [ready, setReady] = useState(false);
  const data = detail.data;

  useEffect(() => {
    if (!data) return;
    let cancelled = false;
    setReady(false);
    loadImage('/logo.svg').then((logo) => {
      const qr = qrRef.current;
      const ctx = stickerRef.current?.getContext('2d');
      if (cancelled || !qr || !ctx) return;
      drawSticker(ctx, qr, logo, data);
      setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, [data]);

  const closeWindow = () => {
    window.close();
    // A tab the console did not open cannot close itself; go back to the generator instead.
    setTimeout(() => {
      if (!window.closed) navigate('/admin?tab=id-cards');
    }, 300);
  };

  const download = () => {
    const canvas = stickerRef.current;
    if (!canvas || !data) return;
    canvas.toBlob((blob) => {
      if (!blob) return;
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = stickerFileName(data);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    }, 'image/png');
  };

  const texts = data ? stickerTexts(data) : null;

  return (
    <div className="min-h-dvh bg-ink-950 px-3 py-6 sm:px-6">
      <title>{`QR Sticker${texts ? ` · ${texts.kitName}` : ''} | ${SITE_NAME}`}</title>
      <main id="main" className="mx-auto max-w-5xl">
        <div className="mb-5 flex items-center gap-3">
          <Logo className="size-10" />
          <h1 className="text-3xl text-bone sm:text-4xl">
            QR <span className="text-fire-400">Sticker</span>
          </h1>
        </div>

        {detail.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner label="Loading QR sticker data..." />
          </div>
        ) : detail.isError ? (
          <div role="alert" className="rounded-lg border-2 border-ember-600 bg-ink-900 p-6 text-center">
            <p className="text-lg font-bold text-ember-400">{failureText(detail.error)}</p>
            <button type="button" onClick={closeWindow} className={buttonStyles('secondary', 'md', 'mt-5')}>
              <X className="size-4" aria-hidden="true" />
              Close Window
            </button>
          </div>
        ) : data && texts ? (
          <div className="grid gap-6 md:grid-cols-[auto_1fr]">
            <div className="mx-auto w-full max-w-[500px]">
              <canvas
                ref={stickerRef}
                width={STICKER_SIZE}
                height={STICKER_SIZE}
                role="img"
                aria-label={`QR sticker of ${texts.kitName}, rider code ${texts.riderCode}`}
                data-testid="qr-sticker"
                data-ready={ready}
                className="block h-auto w-full rounded-md border-2 border-fire-600 bg-white"
              />
              {/* Off-screen source of the QR modules; the sticker canvas copies it. */}
              <div aria-hidden="true" className="pointer-events-none fixed -left-[9999px] top-0">
                <QRCodeCanvas ref={qrRef} value={data.rider_code} size={QR_SIZE} {...RIDER_QR_STYLE} />
              </div>
            </div>
            <div className="space-y-4">
              <dl className="grid grid-cols-2 gap-3 rounded-lg border border-ink-700 bg-ink-900 p-4">
                <div className="col-span-2">
                  <dt className="text-xs font-bold uppercase tracking-wide text-smoke">Rider name</dt>
                  <dd className="text-lg font-bold text-bone">{texts.riderName}</dd>
                </div>
                <div className="col-span-2">
                  <dt className="text-xs font-bold uppercase tracking-wide text-smoke">Kit name</dt>
                  <dd className="font-display text-2xl text-fire-300">{texts.kitName}</dd>
                </div>
                <div>
                  <dt className="text-xs font-bold uppercase tracking-wide text-smoke">Rider code</dt>
                  <dd className="break-all font-mono text-gold-300">{texts.riderCode}</dd>
                </div>
                <div>
                  <dt className="text-xs font-bold uppercase tracking-wide text-smoke">Rider number</dt>
                  <dd className="font-display text-2xl text-bone">{texts.riderNumber}</dd>
                </div>
              </dl>
              <div className="flex flex-col gap-3 sm:flex-row">
                <button type="button" onClick={download} disabled={!ready} className={buttonStyles('primary')}>
                  <Download className="size-5" aria-hidden="true" />
                  Download QR Sticker
                </button>
                <button type="button" onClick={closeWindow} className={buttonStyles('secondary')}>
                  <X className="size-4" aria-hidden="true" />
                  Close Window
                </button>
              </div>
              <section className="rounded-lg border border-ink-700 bg-ink-900 p-4">
                <h2 className="mb-2 flex items-center gap-2 text-xl text-gold-300">
                  <Info className="size-5" aria-hidden="true" />
                  Print instructions
                </h2>
                <ul className="list-disc space-y-1 pl-5 text-sm text-ash">
                  <li>Print this sticker and attach it to the rider's ID.</li>
                  <li>The QR code holds the rider's unique code.</li>
                  <li>Recommended print size: 5cm x 5cm.</li>
                  <li>Use high-quality sticker paper.</li>
                </ul>
              </section>
            </div>
          </div>
        ) : null}
      </main>
    </div>
  );
}
