export function UploadProgress({ percent }: { percent: number }) {
  const label = percent >= 100 ? 'Upload complete, waiting for the server...' : `Uploading... ${percent}%`;
  return (
    <div className="rounded-lg border border-ink-700 bg-ink-950 p-4" data-testid="upload-progress">
      <div className="mb-2 flex justify-between text-sm font-bold text-ash">
        <span id="upload-progress-label">{label}</span>
        <span aria-hidden="true">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="upload-progress-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-3 overflow-hidden rounded-full bg-ink-800"
      >
        <div
          className="h-full rounded-full bg-gradient-to-r from-ember-600 via-fire-500 to-gold-400 transition-[width] duration-200"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
