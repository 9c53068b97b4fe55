// Rider QR codes carry a centre logo (25% of the code, modules behind it removed) and
// must still scan at a checkpoint. Renders real codes with qrcode.react, rasterises them
// and decodes them with jsQR: every one must read back, at the version the app uses.
import { randomInt } from 'node:crypto';
import { RIDER_QR_MIN_VERSION } from '@rally/shared/catalog/web-client';
import jsQR from 'jsqr';
import { QRCodeSVG } from 'qrcode.react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const riderCode = () => `RC-${Array.from({ length: 12 }, () => CROCKFORD[randomInt(32)]).join('')}`;
// A solid stand-in for the logo: the worst case, it hides every module it covers.
const LOGO = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#ea580c"/></svg>').toString('base64')}`;

async function scans(value: string, minVersion: number): Promise<boolean> {
  const size = 280;
  const logo = size * 0.25;
  const svg = renderToStaticMarkup(
    createElement(QRCodeSVG, {
      value,
      size,
      level: 'H',
      marginSize: 2,
      minVersion,
      imageSettings: { src: LOGO, width: logo, height: logo, excavate: true },
    }),
  );
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data === value;
}

describe('rider QR codes with the centre logo', () => {
  it(`scan for every code at version ${RIDER_QR_MIN_VERSION} and up`, async () => {
    const codes = Array.from({ length: 60 }, riderCode);
    const results = await Promise.all(codes.map((c) => scans(c, RIDER_QR_MIN_VERSION)));
    expect(codes.filter((_, i) => !results[i])).toEqual([]);
  });

  it('would not at the smallest version (the reason for the minimum)', async () => {
    const codes = Array.from({ length: 60 }, riderCode);
    const results = await Promise.all(codes.map((c) => scans(c, 1)));
    expect(results.filter((ok) => !ok).length).toBeGreaterThan(0);
  });
});
