import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { setUpTestApi } from '../../test/set-up-test-api';
import { putWaitlistState } from '../../test/demo-host-api';
import { renderRoute } from '../../test/render-route';

const BISTRO = '6553f1a2b3c4d5e6f7a8b901';
const api = setUpTestApi();

const setWaitlist = (active: boolean, locked: boolean) => putWaitlistState(api, BISTRO, { active, locked });

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  await setWaitlist(true, false);
  await initI18n().changeLanguage('pt');
});

describe('venue states on the join route', { timeout: 30_000 }, () => {
  it('sends an unknown venue to the 404 screen', async () => {
    renderRoute('/remote-waitlist/0000000000000000000000aa');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Erro 404' })).toBeInTheDocument();
  });

  it('sends a malformed venue id to the 404 screen too', async () => {
    renderRoute('/remote-waitlist/not-a-venue');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' }, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('blocks the form of a locked waitlist with a closed message', async () => {
    await setWaitlist(true, true);
    renderRoute(`/remote-waitlist/${BISTRO}`);
    const dialog = await screen.findByRole('dialog', { name: 'A fila remota está fechada.' }, { timeout: 15_000 });
    expect(dialog).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Fechar' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Entrar na fila' })).toBeDisabled();
  });

  it('blocks the form of an inactive waitlist', async () => {
    await setWaitlist(false, false);
    renderRoute(`/remote-waitlist/${BISTRO}`);
    expect(await screen.findByRole('dialog', { name: 'Nenhuma fila disponível no momento.' }, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('keeps the merged venue info in sessionStorage under venueInfo', async () => {
    renderRoute(`/remote-waitlist/${BISTRO}`);
    await screen.findByRole('heading', { name: 'Entrar na fila de Bistrô Demo' }, { timeout: 15_000 });
    await waitFor(() => expect(sessionStorage.getItem('venueInfo')).not.toBeNull());
    const info = JSON.parse(sessionStorage.getItem('venueInfo') ?? '{}');
    expect(info).toMatchObject({
      _id: BISTRO,
      venueName: { pt: 'Bistrô Demo', en: 'Demo Bistro' },
      maxPartySize: 8,
      hasMenu: true,
      typeImageSpotlight: 'banners',
      color: { main: '#9a3412' },
      hiredServices: { loginJourney: false },
    });
    expect(info.smallBackgroundImage).toMatch(/\/images\/demo\/bistro-banner-[12]\.svg\?quality=70&format=webp$/);
    expect(info.logoHorizontal).toMatch(/\/images\/demo\/bistro-logo\.svg\?quality=70&format=webp$/);
    expect(document.documentElement.style.getPropertyValue('--vez-main')).toBe('#9a3412');
  });

  it("adopts the banner the boot screen already shows, on a fresh load and over the session's kept one", async () => {
    const banner = (n: number) => `${api.baseUrl}/images/demo/bistro-banner-${n}.svg?quality=70&format=webp`;
    const showBoot = (n: number) => {
      document.querySelector('img.boot__image')?.remove();
      const img = document.createElement('img');
      img.className = 'boot__image';
      Object.assign(img.dataset, { venue: BISTRO, small: banner(n), large: banner(n) });
      document.body.append(img);
    };
    try {
      for (const n of [2, 1]) {
        // First a fresh load (nothing kept), then banner 2 kept for the session while the server showed 1.
        showBoot(n);
        const view = renderRoute(`/remote-waitlist/${BISTRO}`);
        await screen.findByRole('heading', { name: 'Entrar na fila de Bistrô Demo' }, { timeout: 15_000 });
        await waitFor(() => expect(document.querySelector('img.venue-header__image')?.getAttribute('src')).toBe(`${banner(n)}&w=800`));
        expect(JSON.parse(sessionStorage.getItem('venueInfo') ?? '{}').smallBackgroundImage).toBe(banner(n));
        view.unmount();
      }
    } finally {
      document.querySelector('img.boot__image')?.remove();
    }
  });
});
