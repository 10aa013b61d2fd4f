import {
  ErrorCode,
  type HostSettingsResponse,
  MESSAGE_KINDS,
  SMS_MAX_SEGMENTS,
  VenueSettings,
  type VenueSettingsPatch,
  type ThemeResponse,
  linkHostOf,
  templateProblem,
} from '@vez/contract';
import { type Config, asksForWhatsApp } from '../../config.js';
import type { VenueRowUpdate } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { isKnownPhoneCountry } from '../../lib/phone.js';
import { parseInput } from '../../lib/validate.js';
import { type Venue, reservationUrlOf } from '../venues/venue.js';
import { findVenueBySlug, updateVenue } from '../venues/venues.service.js';
import { getVenue, toVenueResponse } from '../venues/venues.service.js';
import { type QueueDeps as WaitlistDeps, announceVenueUpdate, relistFloor } from '../queue/index.js';

export function toSettingsResponse(venue: Venue, config: Config): HostSettingsResponse {
  return {
    venue: toVenueResponse(venue, config.SMART_LINK_BASE_URL, asksForWhatsApp(config.WHATSAPP_TEMPLATES)),
    theme: venue.theme,
    settings: venue.settings,
    maxPartySize: venue.maxPartySize,
    sections: venue.sections,
    waitlist: { active: venue.waitlistActive, locked: venue.waitlistLocked },
  };
}

export async function getSettings(deps: WaitlistDeps, config: Config, venueId: string): Promise<HostSettingsResponse> {
  return toSettingsResponse(await getVenue(deps.db.kysely, venueId), config);
}

function mergeTheme(theme: ThemeResponse, patch: NonNullable<VenueSettingsPatch['theme']>): ThemeResponse {
  return {
    color: { ...theme.color, ...patch.color },
    logo: { ...theme.logo, ...patch.logo },
    typeImageSpotlight: patch.typeImageSpotlight ?? theme.typeImageSpotlight,
    inspirationalImage: { ...theme.inspirationalImage, ...patch.inspirationalImage },
    banners: patch.banners ?? theme.banners,
  };
}

/** Each SMS country must be one the phone library knows (docs/product.md §3); repeats are dropped. */
function checkSmsCountries(codes: string[]): string[] {
  const unknown = codes.find((code) => !isKnownPhoneCountry(code));
  if (unknown)
    throw new AppError(
      ErrorCode.VALIDATION_FAILED,
      `Unknown country code: ${unknown}. Use ISO codes such as BR or PT.`,
      'settings.smsCountries',
    );
  return [...new Set(codes)];
}

/**
 * The venue's own message texts, as they would be saved (docs/security.md, segment cap and template
 * links): each may link only to this site, the venue's menu and its reservation page, and must fit
 * SMS_MAX_SEGMENTS rendered with the venue's real name and link and the longest values. A 422 names
 * the text (and the link).
 */
function checkTemplates(venue: Venue, config: Config): void {
  const { settings } = venue;
  const allowedHosts = [config.publicBaseUrl, settings.menuUrl, reservationUrlOf(venue, config.SMART_LINK_BASE_URL)]
    .map(linkHostOf)
    .filter((host): host is string => host !== undefined);
  for (const kind of MESSAGE_KINDS) {
    for (const lang of ['pt', 'en'] as const) {
      const template = settings.messageTemplates[kind]?.[lang];
      if (template === undefined) continue;
      const venueName = (lang === 'en' ? venue.name.en : undefined) ?? venue.name.pt;
      const problem = templateProblem(kind, template, {
        venueName,
        publicBaseUrl: config.publicBaseUrl,
        holdMinutes: settings.holdMinutes,
        withoutAccents: settings.smsWithoutAccents,
        allowedHosts,
      });
      const field = `settings.messageTemplates.${kind}.${lang}`;
      if (problem?.kind === 'link') {
        throw new AppError(
          ErrorCode.TEMPLATE_LINK_NOT_ALLOWED,
          `Messages may link only to this site, the venue's menu and its reservation page, not to ${problem.link}`,
          field,
        );
      }
      if (problem?.kind === 'tooLong') {
        throw new AppError(
          ErrorCode.MESSAGE_TOO_LONG,
          `With the venue's name, a long first name and the longest link this text costs ${problem.segments} SMS, more than ${SMS_MAX_SEGMENTS}: shorten it.`,
          field,
        );
      }
    }
  }
}

/** Applies a partial change of venue, settings and theme; diners' pages follow through `update`. */
export async function patchSettings(
  deps: WaitlistDeps,
  config: Config,
  venueId: string,
  patch: VenueSettingsPatch,
): Promise<HostSettingsResponse> {
  const venue = await getVenue(deps.db.kysely, venueId);
  const update: VenueRowUpdate = { updated_at: deps.now() };
  if (patch.name) {
    Object.assign(update, {
      name_pt: patch.name.pt,
      name_en: patch.name.en ?? null,
      name_fr: patch.name.fr ?? null,
      name_es: patch.name.es ?? null,
    });
  }
  if (patch.slug !== undefined && patch.slug !== venue.slug) {
    const taken = await findVenueBySlug(deps.db.kysely, patch.slug);
    if (taken && taken.id !== venueId)
      throw new AppError(ErrorCode.VALIDATION_FAILED, 'This slug is already used by another venue.', 'slug');
    update.slug = patch.slug;
  }
  if (patch.address) Object.assign(update, { city: patch.address.city, neighborhood: patch.address.neighborhood });
  if (patch.hasMenu !== undefined) update.has_menu = patch.hasMenu ? 1 : 0;
  if (patch.loginJourney !== undefined) update.login_journey = patch.loginJourney ? 1 : 0;
  if (patch.maxPartySize !== undefined) update.max_party_size = patch.maxPartySize;
  const sections = patch.sections ?? venue.sections;
  if (patch.sections) update.sections = JSON.stringify(patch.sections);
  if (patch.settings) {
    // The merged settings must still hold together (a patch is checked alone at the route).
    const settings = parseInput(VenueSettings, { ...venue.settings, ...patch.settings });
    settings.smsCountries = checkSmsCountries(settings.smsCountries);
    if (settings.sectionMode === 'required' && sections.length === 0) {
      throw new AppError(ErrorCode.VALIDATION_FAILED, 'Add at least one section before requiring one.', 'settings.sectionMode');
    }
    update.settings = JSON.stringify(settings);
  }
  if (patch.theme) update.theme = JSON.stringify(mergeTheme(venue.theme, patch.theme));
  // What the texts render with may change with the name or the settings: check them as they would be.
  if (patch.name || patch.settings) {
    const settings = update.settings ? (JSON.parse(update.settings) as VenueSettings) : venue.settings;
    checkTemplates({ ...venue, name: patch.name ?? venue.name, settings }, config);
  }
  await updateVenue(deps.db.kysely, venueId, update);
  // The floor follows the venue's list of tables (docs/decisions/022-wait-estimates.md, "The floor").
  if (patch.settings?.tables) await relistFloor(deps.db.kysely, venueId, patch.settings.tables, deps.now());
  announceVenueUpdate(deps, venueId);
  return getSettings(deps, config, venueId);
}
