// Lazy module: react-image-crop and its stylesheet load only when a rider picks a photo.
import 'react-image-crop/dist/ReactCrop.css';
import { useRef, useState } from 'react';
import ReactCrop, { centerCrop, makeAspectCrop, type PercentCrop } from 'react-image-crop';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../lib/toast';

const OUTPUT_QUALITY = 0.9;
const OUTPUT_MAX_EDGE = 1024; // plenty for an avatar and an ID card, small on mobile data
const MIN_CROP_PX = 50;

interface CropDialogProps {
  src: string;
  onCancel: () => void;
  onCropped: (file: File) => void;
}

export default function CropDialog({ src, onCancel, onCropped }: CropDialogProps) {
  const imageRef = useRef<HTMLImageElement>(null);
  const [status, setStatus] = useState<'loading' | 'ready'>('loading');
  const [crop, setCrop] = useState<PercentCrop>();
  const [saving, setSaving] = useState(false);

  const onImageLoad = (event: React.SyntheticEvent<HTMLImageElement>) => {
    const { width, height } = event.currentTarget;
    // 80% of the shorter side: 80% of a landscape photo's width would not fit its height.
    const start = width >= height ? { unit: '%' as const, height: 80 } : { unit: '%' as const, width: 80 };
    setCrop(centerCrop(makeAspectCrop(start, 1, width, height), width, height));
    setStatus('ready');
  };

  const save = async () => {
    const image = imageRef.current;
    if (!image || !crop) return;
    setSaving(true);
    try {
      const sx = (crop.x / 100) * image.naturalWidth;
      const sy = (crop.y / 100) * image.naturalHeight;
      const sw = (crop.width / 100) * image.naturalWidth;
      const sh = (crop.height / 100) * image.naturalHeight;
      const edge = Math.max(1, Math.round(Math.min(OUTPUT_MAX_EDGE, sw, sh)));
      const canvas = document.createElement('canvas');
      canvas.width = edge;
      canvas.height = edge;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      // JPEG has no transparency; a transparent PNG would otherwise turn black.
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, edge, edge);
      context.imageSmoothingQuality = 'high';
      context.drawImage(image, sx, sy, sw, sh, 0, 0, edge, edge);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', OUTPUT_QUALITY));
      if (!blob) throw new Error('toBlob failed');
      onCropped(new File([blob], 'profile.jpg', { type: 'image/jpeg' }));
    } catch {
      toast.error('Failed to crop image');
    } finally {
      setSaving(false);
    }
  };

  const canSave = status === 'ready' && !!crop && crop.width > 0 && crop.height > 0 && !saving;

  return (
    <Modal
      open
      onClose={onCancel}
      title="Crop Your Portrait"
      className="max-w-xl"
      footer={
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={onCancel} className={buttonStyles('ghost')}>
            Cancel
          </button>
          <button type="button" onClick={save} disabled={!canSave} className={buttonStyles('primary')}>
            Crop &amp; Save
          </button>
        </div>
      }
    >
      <div data-testid="crop-dialog" data-status={status}>
        <p className="mb-3 text-sm text-ash">Drag the circle over your face. This is how riders will see you.</p>
        <div className="relative flex min-h-40 justify-center">
          {/* Hidden with visibility, not removed: the crop is sized from the laid-out image. */}
          {status === 'loading' && <Spinner label="Loading image..." className="absolute inset-0 justify-center" />}
          <div className={status === 'loading' ? 'invisible' : ''}>
            <ReactCrop
              crop={crop}
              onChange={(_, percent) => setCrop(percent)}
              aspect={1}
              circularCrop
              keepSelection
              minWidth={MIN_CROP_PX}
              minHeight={MIN_CROP_PX}
              ruleOfThirds
            >
              <img
                ref={imageRef}
                src={src}
                alt="Selected profile"
                onLoad={onImageLoad}
                onError={() => {
                  toast.error('Please select a valid image file');
                  onCancel();
                }}
                className="max-h-[55dvh] w-auto"
              />
            </ReactCrop>
          </div>
        </div>
      </div>
    </Modal>
  );
}
