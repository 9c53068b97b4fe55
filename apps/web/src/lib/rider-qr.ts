// How a rider code is drawn as a QR, the same on the rider's pass and the printed sticker,
// so a marshal's scanner reads both alike.
import { RIDER_QR_MIN_VERSION } from '@rally/shared/catalog/web-client';

export const RIDER_QR_STYLE = {
  // Highest error correction: the code must scan with the logo over its centre and
  // through a scratched sticker at a checkpoint.
  level: 'H',
  minVersion: RIDER_QR_MIN_VERSION,
  marginSize: 2,
  // Dark ink on white, whatever the page's theme: printed and read in sun.
  bgColor: '#ffffff',
  fgColor: '#0c0a09',
} as const;
