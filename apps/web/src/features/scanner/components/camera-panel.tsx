// The live camera. Reading starts on a tap (browsers ask for the camera, and sound needs a
// gesture too) and then runs continuously until stopped or the page is left.
import { Camera, CameraOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { unlockAudio } from '../lib/feedback';

export function CameraPanel({ onText }: { onText: (text: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const session = useRef<{ stop(): void } | null>(null);
  const onTextRef = useRef(onText);
  onTextRef.current = onText;

  useEffect(() => () => session.current?.stop(), []);

  const start = async () => {
    unlockAudio();
    setError(null);
    if (!video.current) return;
    try {
      // The decoder (and its wasm) loads only when a camera is actually used.
      const { startCamera } = await import('../lib/qr-camera');
      session.current = await startCamera(video.current, (text) => onTextRef.current(text));
      setRunning(true);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The camera could not be started.');
    }
  };
  const stop = () => {
    session.current?.stop();
    session.current = null;
    setRunning(false);
  };

  return (
    <div className="overflow-hidden rounded-xl border-2 border-ink-600 bg-ink-900">
      <div className={`relative aspect-[4/3] max-h-[45dvh] w-full bg-ink-950 lg:max-h-none ${running ? '' : 'hidden'}`}>
        <video ref={video} className="size-full object-cover" muted playsInline aria-label="Camera view" />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-[15%] rounded-lg border-4 border-fire-500/80"
        />
      </div>
      <div className="flex flex-wrap items-center gap-3 p-3">
        {running ? (
          <button type="button" onClick={stop} className={buttonStyles('secondary', 'lg', 'w-full')}>
            <CameraOff className="size-6" aria-hidden="true" />
            Stop camera
          </button>
        ) : (
          <button type="button" onClick={() => void start()} className={buttonStyles('primary', 'lg', 'w-full')}>
            <Camera className="size-6" aria-hidden="true" />
            Start camera
          </button>
        )}
        {running && (
          <p className="text-base text-ash" data-testid="camera-live">
            Scanning — hold the sticker inside the frame.
          </p>
        )}
        {error && (
          <p role="alert" className="text-lg font-bold text-ember-400">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
