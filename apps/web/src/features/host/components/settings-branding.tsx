import type { Color, ThemeResponse } from '@vez/contract';
import type { SettingsDraft } from '../lib/settings-draft';
import { useHostT } from '../lib/host-i18n';
import { BrandPreview } from './brand-preview';
import { ImageField } from './image-field';
import type { DraftUpdate } from './settings-screen';

const COLOURS = ['main', 'background', 'accentBackground', 'border'] as const;
const SPOTLIGHTS = ['banners', 'inspirational', 'none'] as const;

/** Colours with a live preview, logos, spotlight type, inspirational images and banners. */
export function SettingsBranding({ venueId, draft, update }: { venueId: string; draft: SettingsDraft; update: DraftUpdate }) {
  const { t } = useHostT();
  const theme = draft.theme;
  const setTheme = (change: (theme: ThemeResponse) => ThemeResponse) => update((d) => ({ ...d, theme: change(d.theme) }));
  const setColour = (key: keyof Color, value: string) => setTheme((th) => ({ ...th, color: { ...th.color, [key]: value } }));
  const banners = theme.banners.list;
  const setBanners = (list: typeof banners) => setTheme((th) => ({ ...th, banners: { list } }));

  return (
    <fieldset className="host-group">
      <legend>{t('settings.branding')}</legend>
      <div className="host-branding">
        <div className="host-grid">
          {COLOURS.map((key) => (
            <label key={key} className="host-field host-colour">
              <span>{t(`settings.colour_${key}`)}</span>
              <input type="color" value={theme.color[key]} onChange={(e) => setColour(key, e.target.value)} />
              <code>{theme.color[key]}</code>
            </label>
          ))}
        </div>
        <BrandPreview name={draft.name.pt} theme={theme} />
      </div>
      <div className="host-grid">
        {(['vertical', 'horizontal', 'horizontalWhite'] as const).map((key) => (
          <ImageField
            key={key}
            venueId={venueId}
            label={t(`settings.logo_${key}`)}
            path={theme.logo[key]}
            onChange={(p) => setTheme((th) => ({ ...th, logo: { ...th.logo, [key]: p } }))}
          />
        ))}
      </div>
      <label className="host-field">
        <span>{t('settings.spotlight')}</span>
        <select value={theme.typeImageSpotlight} onChange={(e) => setTheme((th) => ({ ...th, typeImageSpotlight: e.target.value }))}>
          {SPOTLIGHTS.map((s) => (
            <option key={s} value={s}>
              {t(`settings.spotlight_${s}`)}
            </option>
          ))}
        </select>
      </label>
      {theme.typeImageSpotlight === 'inspirational' && (
        <div className="host-grid">
          {(['small', 'large'] as const).map((key) => (
            <ImageField
              key={key}
              venueId={venueId}
              label={t(`settings.inspirational_${key}`)}
              path={theme.inspirationalImage[key]}
              onChange={(p) => setTheme((th) => ({ ...th, inspirationalImage: { ...th.inspirationalImage, [key]: p } }))}
            />
          ))}
        </div>
      )}
      {theme.typeImageSpotlight === 'banners' && (
        <div className="host-banners">
          <h2>{t('settings.banners')}</h2>
          <ul>
            {banners.map((banner, i) => (
              <li key={`${banner.imageUrl}-${i}`} className="host-banner">
                <ImageField
                  venueId={venueId}
                  label={t('settings.bannerN', { n: i + 1 })}
                  path={banner.imageUrl}
                  onChange={(p) => setBanners(banners.map((b, j) => (j === i ? { ...b, imageUrl: p } : b)))}
                />
                <label className="host-check">
                  <input
                    type="checkbox"
                    checked={banner.isActive}
                    onChange={(e) => setBanners(banners.map((b, j) => (j === i ? { ...b, isActive: e.target.checked } : b)))}
                  />
                  <span>{t('settings.bannerActive', { n: i + 1 })}</span>
                </label>
                <button type="button" className="host-chip" onClick={() => setBanners(banners.filter((_, j) => j !== i))}>
                  {t('settings.bannerRemove', { n: i + 1 })}
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="host-chip"
            disabled={banners.length >= 20}
            onClick={() => setBanners([...banners, { isActive: true, imageUrl: '' }])}
          >
            {t('settings.bannerAdd')}
          </button>
        </div>
      )}
    </fieldset>
  );
}
