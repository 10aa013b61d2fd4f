import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Modal } from './modal';

describe('Modal (docs/product.md §12)', () => {
  it('closes by its close button or a click outside when closable', () => {
    const onClose = vi.fn();
    render(<Modal open type="warning" title="Atenção" onClose={onClose} closeLabel="Fechar" />);
    const dialog = screen.getByRole('dialog', { name: 'Atenção' });
    fireEvent.click(screen.getByRole('button', { name: 'Fechar' }));
    fireEvent.click(dialog); // the backdrop is the dialog element itself
    fireEvent(dialog, new Event('cancel', { cancelable: true })); // Escape
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  it('ignores close attempts when closable is false', () => {
    const onClose = vi.fn();
    render(<Modal open type="closed" title="Fechado" closable={false} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Fechado' });
    expect(screen.queryByRole('button')).toBeNull();
    fireEvent.click(dialog);
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('renders each of the five types, and nothing when closed', () => {
    for (const type of ['error', 'noIcon', 'closed', 'success', 'warning'] as const) {
      const { container, unmount } = render(<Modal open type={type} title={type} />);
      expect(container.querySelector(`.modal--${type}`)).not.toBeNull();
      expect(container.querySelector('.modal__icon')).toEqual(type === 'noIcon' ? null : expect.anything());
      unmount();
    }
    render(<Modal open={false} title="hidden" />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
