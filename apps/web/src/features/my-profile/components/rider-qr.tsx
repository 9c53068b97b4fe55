// Lazy module (see rider-code-tab.tsx): qrcode.react loads only when the Rider Code tab
// opens, never with the landing page.
import { RIDER_QR_MIN_VERSION } from '@rally/shared/catalog';
import { QRCodeCanvas } from 'qrcode.react';

const QR_SIZE = 256;

export default function RiderQr({ value }: { value: string }) {
  return (
    <QRCodeCanvas
      value={value}
      size={QR_SIZE}
      // Highest error correction: the code must scan with the logo over its centre and
      // through a scratched sticker at a checkpoint.
      level="H"
      minVersion={RIDER_QR_MIN_VERSION}
      marginSize={2}
      bgColor="#ffffff"
      fgColor="#0c0a09"
      imageSettings={{ src: '/logo.svg', width: 56, height: 56, excavate: true }}
      role="img"
      aria-label={`QR code of your rider code ${value}`}
      data-testid="rider-qr"
      className="rounded-lg"
    />
  );
}
