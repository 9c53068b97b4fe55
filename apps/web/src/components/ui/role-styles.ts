// How each role looks on a badge, on the rider pages and in the console alike.
import type { Role } from '@rally/shared/catalog/accounts';
import { BadgeCheck, Bike, Code, Crown, type LucideIcon, Shield, Star } from 'lucide-react';

export const ROLE_STYLES: Record<Role, { icon: LucideIcon; className: string }> = {
  admin: { icon: Crown, className: 'border-ember-500 bg-ember-700/30 text-ember-400' },
  marshall: { icon: Shield, className: 'border-gold-500 bg-gold-500/15 text-gold-300' },
  officer: { icon: BadgeCheck, className: 'border-sky-500 bg-sky-500/15 text-sky-300' },
  developer: { icon: Code, className: 'border-violet-500 bg-violet-500/15 text-violet-300' },
  guest: { icon: Star, className: 'border-teal-500 bg-teal-500/15 text-teal-300' },
  participant: { icon: Bike, className: 'border-fire-500 bg-fire-500/15 text-fire-300' },
};
