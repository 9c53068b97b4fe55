// Continuous QR reading from the rear camera with `barcode-detector`'s ponyfill over
// zxing-wasm. Its WebAssembly is part of the build (imported as a URL below), served by the
// product and precached by the service worker: never fetched from a CDN, so the scanner
// starts offline and on closed networks.
import { BarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

let prepared = false;
function prepare() {
  if (prepared) return;
  prepared = true;
  prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) =>
        path.endsWith('.wasm') ? new URL(wasmUrl, location.href).href : prefix + path,
    },
    fireImmediately: true,
  });
}

export class CameraUnavailableError extends Error {}

export interface CameraSession {
  stop(): void;
}

/**
 * Opens the camera into `video` and calls `onCode` with every QR text read, about ten
 * times a second (the caller de-duplicates). Rejects with CameraUnavailableError and a
 * message a marshal can act on.
 */
export async function startCamera(video: HTMLVideoElement, onCode: (text: string) => void): Promise<CameraSession> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new CameraUnavailableError(
      'This browser gives no camera here: open the scanner over HTTPS (or on this device itself), or type rider numbers below.',
    );
  }
  prepare();
  let stream: MediaStream;
  try {
    // `ideal`, never `exact`: many phones (and test cameras) report no facing mode at all.
    stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
      audio: false,
    });
  } catch (error) {
    const name = error instanceof DOMException ? error.name : '';
    throw new CameraUnavailableError(
      name === 'NotAllowedError'
        ? 'Camera access was refused. Allow the camera for this site in the browser settings, or type rider numbers below.'
        : 'No camera could be opened. Type rider numbers below.',
    );
  }
  video.srcObject = stream;
  video.muted = true;
  video.playsInline = true;
  await video.play().catch(() => {});

  const detector = new BarcodeDetector({ formats: ['qr_code'] });
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    if (stopped) return;
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
      try {
        for (const code of await detector.detect(video)) if (code.rawValue) onCode(code.rawValue);
      } catch {
        // A frame that cannot be read (e.g. while the camera settles): the next one may.
      }
    }
    if (!stopped) timer = setTimeout(tick, 100);
  };
  void tick();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream.getTracks()) track.stop();
      video.srcObject = null;
    },
  };
}
