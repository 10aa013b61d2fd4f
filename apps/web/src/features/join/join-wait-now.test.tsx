import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import '../../locales/forms';
import { JoinSummaryCard } from './components/join-summary-card';

beforeEach(async () => {
  await initI18n().changeLanguage('pt');
});

const card = (currentWait: Parameters<typeof JoinSummaryCard>[0]['currentWait']) =>
  render(<JoinSummaryCard venueName="Bistrô" place="" reservationUrl="https://example.com" currentWait={currentWait} />);

// The wait now on the join page (docs/product.md §4; docs/product.md §4.3a).
describe('the join page’s wait now', () => {
  it('shows the parties ahead alone before the venue has a pace or history', () => {
    card({ partiesAhead: 3 });
    expect(screen.getByTestId('current-wait').textContent).toBe('3 grupos na frente agora');
  });

  it('shows a range up to 45 minutes wide, and a wider one as "more than" its lower end', () => {
    const { unmount } = card({ partiesAhead: 1, estimatedTime: 20, estimatedRange: { low: 10, high: 55 } });
    expect(screen.getByTestId('current-wait').textContent).toBe('Espera agora: cerca de 10 a 55 min, 1 grupo na frente');
    unmount();
    card({ partiesAhead: 6, estimatedTime: 60, estimatedRange: { low: 35, high: 95 } });
    expect(screen.getByTestId('current-wait').textContent).toBe('Espera agora: mais de 35 min, 6 grupos na frente');
  });

  it('says nothing when the venue does not show the wait', () => {
    card(undefined);
    expect(screen.queryByTestId('current-wait')).toBeNull();
  });
});
