import { type HostSettingsResponse, type VenueSettingsPatch, defaultColor, defaultVenueSettings } from '@vez/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { hostApi } from '../api/host-api';
import { SettingsScreen } from './settings-screen';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const answer = (tables: HostSettingsResponse['settings']['tables']): HostSettingsResponse => ({
  venue: {
    _id: BISTRO,
    slug: 'bistro-demo',
    name: { pt: 'Bistrô Demo' },
    address: { city: 'São Paulo', neighborhood: 'Pinheiros' },
    hasMenu: false,
    hiredServices: { loginJourney: false },
    reservationUrl: 'https://example.com/r',
    settings: { ...defaultVenueSettings, tables },
  },
  theme: {
    color: defaultColor,
    logo: { vertical: '', horizontal: '', horizontalWhite: '' },
    typeImageSpotlight: 'none',
    inspirationalImage: { small: '', large: '' },
    banners: { list: [] },
  },
  settings: { ...defaultVenueSettings, tables },
  maxPartySize: 8,
  sections: [],
  waitlist: { active: true, locked: false },
});

/** The Tables section of the settings screen (docs/product.md §2), saved with the other settings. */
describe('settings: the tables the venue has', () => {
  let sent: VenueSettingsPatch[];
  beforeEach(async () => {
    await initI18n().changeLanguage('pt');
    sent = [];
    vi.spyOn(hostApi, 'settings').mockResolvedValue(answer([{ seats: 2, count: 9 }]));
    vi.spyOn(hostApi, 'patchSettings').mockImplementation(async (_venueId, patch) => {
      sent.push(patch);
      return answer(patch.settings?.tables ?? []);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  const renderScreen = async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <SettingsScreen venueId={BISTRO} />
      </QueryClientProvider>,
    );
    return within(await screen.findByRole('group', { name: 'Mesas' }));
  };

  it('lists the stored tables, adds a row, removes one, and saves the rows with the other settings', async () => {
    const user = userEvent.setup();
    const tables = await renderScreen();
    expect(tables.getByText(/a estimativa de espera acompanha quais mesas estão ocupadas/)).toBeInTheDocument();
    expect(tables.getByLabelText('Lugares da linha 1')).toHaveValue(2);
    expect(tables.getByLabelText('Quantidade de mesas da linha 1')).toHaveValue(9);

    await user.click(tables.getByRole('button', { name: 'Adicionar tamanho de mesa' }));
    await user.type(tables.getByLabelText('Lugares da linha 2'), '4');
    await user.type(tables.getByLabelText('Quantidade de mesas da linha 2'), '8');
    await user.click(tables.getByRole('button', { name: 'Adicionar tamanho de mesa' }));
    await user.type(tables.getByLabelText('Lugares da linha 3'), '6');
    await user.type(tables.getByLabelText('Quantidade de mesas da linha 3'), '2');
    await user.click(tables.getByRole('button', { name: 'Remover a linha 1' }));
    expect(tables.getByLabelText('Lugares da linha 1')).toHaveValue(4);

    await user.click(screen.getByRole('button', { name: 'Salvar alterações' }));
    expect(await screen.findByText(/^Alterações salvas/)).toHaveAttribute('role', 'status');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.settings).toMatchObject({
      tables: [
        { seats: 4, count: 8 },
        { seats: 6, count: 2 },
      ],
      holdMinutes: defaultVenueSettings.holdMinutes,
    });
  });

  it('removing every row saves none', async () => {
    const user = userEvent.setup();
    const tables = await renderScreen();
    await user.click(tables.getByRole('button', { name: 'Remover a linha 1' }));
    expect(tables.getByText(/Nenhuma mesa informada/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Salvar alterações' }));
    await screen.findByText(/^Alterações salvas/);
    expect(sent[0]?.settings?.tables).toEqual([]);
  });

  it('an invalid value or a size twice shows the error and sends nothing', async () => {
    const user = userEvent.setup();
    const tables = await renderScreen();
    const seats = tables.getByLabelText('Lugares da linha 1');
    // Out of range: the browser's own check holds the form (min, max, step on the input).
    await user.clear(seats);
    await user.type(seats, '0');
    expect(seats).toBeInvalid();
    await user.click(screen.getByRole('button', { name: 'Salvar alterações' }));
    expect(sent).toEqual([]);
    // A count without its seats: the console's own sentence.
    await user.clear(seats);
    await user.click(screen.getByRole('button', { name: 'Salvar alterações' }));
    expect(await screen.findByText('Mesas: lugares de 1 a 40 e quantidade de 1 a 200, em números inteiros.')).toHaveAttribute(
      'role',
      'alert',
    );

    await user.clear(seats);
    await user.type(seats, '2');
    await user.click(tables.getByRole('button', { name: 'Adicionar tamanho de mesa' }));
    await user.type(tables.getByLabelText('Lugares da linha 2'), '2');
    await user.type(tables.getByLabelText('Quantidade de mesas da linha 2'), '3');
    await user.click(screen.getByRole('button', { name: 'Salvar alterações' }));
    expect(await screen.findByText('Mesas: cada tamanho de mesa uma vez só.')).toHaveAttribute('role', 'alert');
    expect(sent).toEqual([]);
  });
});
