// Lazy module (see tracking-card.tsx): qrcode.react loads only with the card.
import { QRCodeCanvas } from 'qrcode.react';

/**
 * Traccar Client's configuration link as a QR code. Plain (no logo over the centre): it is
 * scanned once, by an app's camera from another screen, and a clean code reads fastest.
 * Dark on white with a quiet zone, whatever the page's theme.
 */
export default function TrackingQr({ value }: { value: string }) {
  return (
    <QRCodeCanvas
      value={value}
      size={240}
      level="M"
      marginSize={4}
      bgColor="#ffffff"
      fgColor="#0c0a09"
      role="img"
      aria-label="QR code that sets up Traccar Client for your tracking"
      data-testid="tracking-qr"
      className="block h-auto w-full max-w-60"
    />
  );
}
