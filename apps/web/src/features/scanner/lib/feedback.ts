// A verdict is felt and heard as well as seen: a marshal in the sun often cannot read the
// screen. The tones are synthesised with WebAudio, so there is no sound file to cache.
import type { LocalVerdict } from './local-verdict';

let context: AudioContext | null = null;

/** Browsers only allow sound after a gesture: called from the first tap on the page. */
export function unlockAudio(): void {
  if (typeof AudioContext === 'undefined') return;
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume();
}

function tone(frequency: number, start: number, duration: number) {
  if (context?.state !== 'running') return;
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = 'square';
  osc.frequency.value = frequency;
  const t = context.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(0.25, t + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + duration);
  osc.connect(gain).connect(context.destination);
  osc.start(t);
  osc.stop(t + duration + 0.02);
}

const PATTERNS: Record<LocalVerdict['tone'] | 'repeat', { beeps: [number, number, number][]; vibrate: number[] }> = {
  // One high beep: through. Two mid: look at the screen. Three low: stop the rider.
  accepted: { beeps: [[1320, 0, 0.12]], vibrate: [80] },
  flagged: {
    beeps: [
      [880, 0, 0.12],
      [880, 0.18, 0.12],
    ],
    vibrate: [120, 80, 120],
  },
  unknown: {
    beeps: [
      [330, 0, 0.18],
      [330, 0.25, 0.18],
      [330, 0.5, 0.18],
    ],
    vibrate: [250, 100, 250, 100, 250],
  },
  repeat: { beeps: [[660, 0, 0.05]], vibrate: [30] },
};

export function signalVerdict(kind: LocalVerdict['tone'] | 'repeat'): void {
  const pattern = PATTERNS[kind];
  for (const [f, s, d] of pattern.beeps) tone(f, s, d);
  try {
    navigator.vibrate?.(pattern.vibrate);
  } catch {
    // Some browsers refuse vibration without a recent gesture; the sound and colour remain.
  }
}
