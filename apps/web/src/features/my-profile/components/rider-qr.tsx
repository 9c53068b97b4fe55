// Lazy module (see rider-code-tab.tsx): qrcode.react loads only when the Rider Code tab
// opens, never with the landing page.
import { QRCodeCanvas } from 'qrcode.react';
import { RIDER_QR_STYLE } from '../../../lib/rider-qr';

const QR_SIZE = 256;

export default function RiderQr({ value }: { value: string }) {
  return (
    <QRCodeCanvas
      value={value}
      size={QR_SIZE}
      {...RIDER_QR_STYLE}
      imageSettings={{ src: '/logo.svg', width: 56, height: 56, excavate: true }}
      role="img"
      aria-label={`QR code of your rider code ${value}`}
      data-testid="rider-qr"
      className="rounded-lg"
    />
  );
}
