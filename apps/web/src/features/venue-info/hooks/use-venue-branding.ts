import { type Color, defaultColor } from '@vez/contract';
import { useEffect } from 'react';
import { contrastRatio, readableOn } from '../lib/contrast';

/**
 * Puts the venue colours on the page as CSS variables (defaults when the venue gives none). Text on
 * the main colour and links in it are checked for contrast (WCAG AA) and fall back when too light.
 */
export function useVenueBranding(color: Partial<Color> | undefined): void {
  useEffect(() => {
    const c = { ...defaultColor, ...color };
    const style = document.documentElement.style;
    style.setProperty('--vez-main', c.main);
    style.setProperty('--vez-on-main', readableOn(c.main));
    style.setProperty('--vez-link', contrastRatio(c.main, '#ffffff') >= 4.5 ? c.main : '#1f1a16');
    style.setProperty('--vez-background', c.background);
    style.setProperty('--vez-accent-background', c.accentBackground);
    style.setProperty('--vez-border', c.border);
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', c.main);
  }, [color]);
}
