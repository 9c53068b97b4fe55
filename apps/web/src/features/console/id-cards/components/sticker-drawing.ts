// The QR sticker: a 500x500 canvas, the QR of the rider code at
// 280 px with the logo over its centre at 25% of the QR size, and the rider's names, code
// and number. White ground and near-black ink: stickers are printed and scanned in sun.
import type { IdCardDetail } from '@rally/shared/contracts/id-cards';

export const STICKER_SIZE = 500;
export const QR_SIZE = 280;
export const LOGO_SIZE = Math.round(QR_SIZE * 0.25);

const INK = '#0c0a09';
const FIRE = '#ea580c';
const SANS = 'system-ui, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif';
const MONO = 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace';

export type StickerData = Pick<IdCardDetail, 'first_name' | 'last_name' | 'kit_name' | 'rider_code' | 'rider_number'>;

export function stickerTexts(d: StickerData) {
  return {
    riderName: `${d.first_name} ${d.last_name}`.trim(),
    kitName: d.kit_name?.trim() || 'No Kit Name',
    riderCode: d.rider_code,
    riderNumber: d.rider_number === null ? 'N/A' : `#${d.rider_number}`,
  };
}

/** Shrinks the font until the text fits the width. */
function fitText(
  ctx: CanvasRenderingContext2D,
  text: string,
  weight: string,
  size: number,
  maxWidth: number,
  family = SANS,
): void {
  let px = size;
  ctx.font = `${weight} ${px}px ${family}`;
  while (px > 10 && ctx.measureText(text).width > maxWidth) {
    px -= 1;
    ctx.font = `${weight} ${px}px ${family}`;
  }
}

export function drawSticker(
  ctx: CanvasRenderingContext2D,
  qr: CanvasImageSource,
  logo: CanvasImageSource | null,
  data: StickerData,
): void {
  const t = stickerTexts(data);
  const S = STICKER_SIZE;
  ctx.save();
  ctx.clearRect(0, 0, S, S);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, S, S);

  // Frame and header band.
  ctx.fillStyle = INK;
  ctx.fillRect(0, 0, S, 58);
  ctx.strokeStyle = INK;
  ctx.lineWidth = 8;
  ctx.strokeRect(4, 4, S - 8, S - 8);
  ctx.fillStyle = FIRE;
  ctx.fillRect(8, 58, S - 16, 5);

  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#ffffff';
  fitText(ctx, 'MINDANAO WARRIORS', '900', 24, S - 170);
  ctx.fillText('MINDANAO WARRIORS', 22, 31);
  ctx.textAlign = 'right';
  ctx.fillStyle = '#fb923c';
  fitText(ctx, t.riderNumber, '900', 32, 140);
  ctx.fillText(t.riderNumber, S - 22, 32);

  // The QR, centred, with the logo on a white plate over its middle.
  const qrX = (S - QR_SIZE) / 2;
  const qrY = 74;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(qr, qrX, qrY, QR_SIZE, QR_SIZE);
  ctx.imageSmoothingEnabled = true;
  if (logo) {
    const lx = qrX + (QR_SIZE - LOGO_SIZE) / 2;
    const ly = qrY + (QR_SIZE - LOGO_SIZE) / 2;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(lx - 4, ly - 4, LOGO_SIZE + 8, LOGO_SIZE + 8);
    ctx.drawImage(logo, lx, ly, LOGO_SIZE, LOGO_SIZE);
  }

  // Names, code.
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = INK;
  fitText(ctx, t.kitName.toUpperCase(), '900', 30, S - 60);
  ctx.fillText(t.kitName.toUpperCase(), S / 2, 392);
  ctx.fillStyle = '#44403c';
  fitText(ctx, t.riderName, '600', 20, S - 60);
  ctx.fillText(t.riderName, S / 2, 422);
  ctx.fillStyle = INK;
  fitText(ctx, t.riderCode, '700', 20, S - 60, MONO);
  ctx.fillText(t.riderCode, S / 2, 456);
  ctx.fillStyle = FIRE;
  ctx.fillRect(S / 2 - 60, 474, 120, 4);
  ctx.restore();
}

/** e.g. 'qr-sticker-RC-4K7Q2M9XH3PA-WIND-RIDER.png': only letters, digits and dashes. */
export function stickerFileName(d: Pick<StickerData, 'rider_code' | 'kit_name'>): string {
  const clean = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^-|-$/g, '');
  const parts = ['qr-sticker', clean(d.rider_code), clean(d.kit_name ?? '')].filter(Boolean);
  return `${parts.join('-').slice(0, 120)}.png`;
}

export function loadImage(src: string): Promise<HTMLImageElement | null> {
  return new Promise((resolve) => {
    const img = new Image(LOGO_SIZE, LOGO_SIZE);
    img.onload = () => resolve(img);
    // A missing logo must not stop the sticker: the QR still scans without it.
    img.onerror = () => resolve(null);
    img.src = src;
  });
}
