// Class names rather than a <Button> component, so links and buttons share one look.
type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Size = 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-md font-display uppercase tracking-wider transition-colors ' +
  'disabled:cursor-not-allowed disabled:opacity-60 select-none';

const variants: Record<Variant, string> = {
  // Dark text on fire: white on orange fails contrast, ink on orange is > 7:1.
  primary:
    'bg-fire-500 text-ink-950 shadow-[0_4px_0_0_var(--color-ember-700)] hover:bg-fire-400 active:translate-y-0.5 active:shadow-none',
  secondary: 'border-2 border-fire-500 text-fire-300 hover:bg-fire-500/10',
  ghost: 'text-ash hover:bg-ink-800 hover:text-bone',
  danger: 'bg-ember-600 text-white hover:bg-ember-500',
};

const sizes: Record<Size, string> = {
  md: 'min-h-11 px-4 py-2 text-base',
  lg: 'min-h-14 px-6 py-3 text-xl',
};

export function buttonStyles(variant: Variant = 'primary', size: Size = 'md', extra = ''): string {
  return `${base} ${variants[variant]} ${sizes[size]} ${extra}`.trim();
}
