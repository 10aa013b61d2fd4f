import { screen, waitFor } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';

/**
 * Opens the join form's party-size list and picks `option`. The page may render again once the
 * venue's fresh info arrives (its kept copy shows first), which closes an open list: open it again
 * until the option shows. Only a closed list is clicked (`aria-expanded`): a click on an open one
 * whose options have not rendered yet would close it again.
 */
export async function choosePartySize(user: ReturnType<typeof userEvent.setup>, label: RegExp, option: string): Promise<void> {
  const button = await screen.findByRole('button', { name: label }, { timeout: 15_000 });
  await waitFor(
    async () => {
      const current = button.isConnected ? button : screen.getByRole('button', { name: label });
      if (current.getAttribute('aria-expanded') !== 'true') await user.click(current);
      expect(screen.getByRole('option', { name: option })).toBeInTheDocument();
    },
    { timeout: 15_000 },
  );
  await user.click(screen.getByRole('option', { name: option }));
}
