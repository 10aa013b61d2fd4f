import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CodeBoxes, emptyCode } from './code-boxes';

function Harness({ onComplete }: { onComplete: (code: string) => void }) {
  const [digits, setDigits] = useState(emptyCode);
  return <CodeBoxes digits={digits} onChange={setDigits} onComplete={onComplete} groupLabel="Código" boxLabel={(n) => `Dígito ${n}`} />;
}

const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];
const values = () => boxes().map((box) => box.value);

describe('code boxes (docs/product.md §15)', () => {
  it('strips non-digits, keeps one digit per box and moves on', async () => {
    const user = userEvent.setup();
    const onComplete = vi.fn();
    render(<Harness onComplete={onComplete} />);
    expect(boxes()).toHaveLength(6);
    await user.click(screen.getByLabelText('Dígito 1'));
    await user.keyboard('a');
    expect(values()).toEqual(['', '', '', '', '', '']);
    expect(screen.getByLabelText('Dígito 1')).toHaveFocus();
    await user.keyboard('4-');
    expect(values()).toEqual(['4', '', '', '', '', '']);
    expect(screen.getByLabelText('Dígito 2')).toHaveFocus();
    await user.keyboard('7');
    // Back in the first box, a new digit replaces the old one: still one digit per box.
    await user.click(screen.getByLabelText('Dígito 1'));
    await user.keyboard('9');
    expect(values()).toEqual(['9', '7', '', '', '', '']);
    expect(onComplete).not.toHaveBeenCalled();
  });

  it('fills every box from a pasted code and submits it', async () => {
    const user = userEvent.setup();
    const onComplete = vi.fn();
    render(<Harness onComplete={onComplete} />);
    await user.click(screen.getByLabelText('Dígito 1'));
    await user.paste('12 34-56');
    expect(values()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(onComplete).toHaveBeenCalledExactlyOnceWith('123456');
  });

  it('moves back and clears with backspace on an empty box', async () => {
    const user = userEvent.setup();
    render(<Harness onComplete={vi.fn()} />);
    await user.click(screen.getByLabelText('Dígito 1'));
    await user.keyboard('123');
    expect(screen.getByLabelText('Dígito 4')).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(values()).toEqual(['1', '2', '', '', '', '']);
    expect(screen.getByLabelText('Dígito 3')).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(values()).toEqual(['1', '', '', '', '', '']);
    expect(screen.getByLabelText('Dígito 2')).toHaveFocus();
  });

  it('submits when the last digit is entered, not before', async () => {
    const user = userEvent.setup();
    const onComplete = vi.fn();
    render(<Harness onComplete={onComplete} />);
    await user.click(screen.getByLabelText('Dígito 1'));
    await user.keyboard('80521');
    expect(onComplete).not.toHaveBeenCalled();
    await user.keyboard('7');
    expect(onComplete).toHaveBeenCalledExactlyOnceWith('805217');
  });
});
