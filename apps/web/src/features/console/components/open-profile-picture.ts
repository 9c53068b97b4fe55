// The console's "view profile picture": the picture in a window of its own, with a
// download link, or a notice when the rider has none.
import { fetchProfileImage } from '../../../lib/profile-image';

function asDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Failed to read image'));
    reader.readAsDataURL(blob);
  });
}

function slug(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'rider'
  );
}

/**
 * Opens a rider's picture in a new window with a download link. The window is opened
 * before the download so popup blockers see it as the click's own; the image travels
 * as a data URL so it outlives this page's object URLs.
 */
export async function openProfilePicture(
  userId: string,
  name: string,
  notify: { info: (m: string) => void; error: (m: string) => void },
): Promise<void> {
  const win = window.open('', '_blank');
  try {
    const blob = await fetchProfileImage(userId);
    if (!blob) {
      win?.close();
      notify.info('This user does not have a profile picture.');
      return;
    }
    const url = await asDataUrl(blob);
    if (!win) {
      notify.error('Failed to load profile picture. Please try again.');
      return;
    }
    const doc = win.document;
    doc.title = `${name} — profile picture`;
    doc.body.style.cssText =
      'margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:16px;background:#0c0a09;color:#f7f1e8;font-family:system-ui,sans-serif';
    const img = doc.createElement('img');
    img.src = url;
    img.alt = `${name} profile picture`;
    img.style.cssText = 'max-width:min(90vw,640px);max-height:80vh;border-radius:12px;border:3px solid #f97316';
    const link = doc.createElement('a');
    link.href = url;
    link.download = `${slug(name)}-profile.${blob.type === 'image/png' ? 'png' : 'jpg'}`;
    link.textContent = 'Download picture';
    link.style.cssText =
      'background:#f97316;color:#0c0a09;padding:12px 20px;border-radius:6px;font-weight:800;text-decoration:none;text-transform:uppercase';
    doc.body.replaceChildren(img, link);
  } catch {
    win?.close();
    notify.error('Failed to load profile picture. Please try again.');
  }
}
