import type { TextFn } from '../hooks/use-venue-text';

/**
 * The big position number inside a turning ring: the ring says the page is live. The number is
 * read out as a sentence; the polite live region announces each change without stealing focus.
 */
export function PositionBadge({ position, text }: { position: number; text: TextFn }) {
  return (
    <div className="position-badge">
      <div className="position-badge__ring" aria-hidden="true" />
      <p className="position-badge__content" aria-hidden="true">
        <span className="position-badge__number" data-testid="position-number">
          {position}
        </span>
        <span className="position-badge__label">{text('position.positionLabel')}</span>
      </p>
      <p className="visually-hidden" aria-live="polite">
        {text('position.positionAria', { position })}
      </p>
    </div>
  );
}
