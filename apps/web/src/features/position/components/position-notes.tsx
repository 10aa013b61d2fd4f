import { Link } from '../../../lib/router';
import { paths } from '../../../config/paths';
import type { TextFn } from '../hooks/use-venue-text';

/** The priority notice and the terms disclaimer under the waiting panel. */
export function PositionNotes({ text }: { text: TextFn }) {
  return (
    <div className="position-notes">
      <p className="position-notes__priority">{text('position.priorityNotice')}</p>
      <p className="position-notes__terms">
        {text('position.terms')} <Link to={paths.terms.href()}>{text('common.termsLink')}</Link>.
      </p>
    </div>
  );
}

/** The footer prompt to the venue's menu (docs/product.md §2: `menuUrl` with `hasMenu`). */
export function MenuPrompt({ menuUrl, text }: { menuUrl: string; text: TextFn }) {
  return (
    <aside className="menu-prompt" aria-label={text('position.menuLink')}>
      <p>{text('position.menuPrompt')}</p>
      <a className="button button--secondary button--small" href={menuUrl} target="_blank" rel="noopener noreferrer">
        {text('position.menuLink')}
      </a>
    </aside>
  );
}
