import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CardMenu } from './card-menu';

/** docs/decisions/032-the-door-on-a-busy-night.md: a card's other actions, reached by keyboard. */
describe('a card menu', () => {
  const renderMenu = () => {
    const onSeat = vi.fn();
    render(
      <CardMenu
        label="Mais"
        name="Mais ações para Joana"
        items={[
          { key: 'seat', label: 'Sentar', onSelect: onSeat },
          { key: 'remove', label: 'Remover', onSelect: vi.fn() },
        ]}
      />,
    );
    return { onSeat, toggle: screen.getByRole('button', { name: 'Mais ações para Joana' }) };
  };

  it('opens from the keyboard on its first action; Escape closes it and gives the focus back', async () => {
    const user = userEvent.setup();
    const { toggle } = renderMenu();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Sentar' })).toBeNull();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Sentar' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Remover' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('runs the chosen action, closes, and gives the focus back', async () => {
    const user = userEvent.setup();
    const { toggle, onSeat } = renderMenu();
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Sentar' }));
    expect(onSeat).toHaveBeenCalledTimes(1);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });
});
