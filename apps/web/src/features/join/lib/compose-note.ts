import { SECTION_NOTE_PREFIX, type VenueSettings } from '@vez/contract';

interface NoteParts {
  note: string;
  location: string;
  company: string;
  section: string;
}

/**
 * The note sent with a join (docs/product.md §15): the free note or the unit; or location plus company
 * name; prefixed with 'Localização: <section>' when the venue asks for a section.
 */
export function composeNote(values: NoteParts, settings: Pick<VenueSettings, 'sectionMode' | 'noteMode'>): string {
  const body =
    settings.noteMode === 'locationAndCompany'
      ? [values.location.trim(), values.company.trim()].filter(Boolean).join(' - ')
      : values.note.trim();
  if (settings.sectionMode !== 'required' || !values.section) return body;
  const prefix = `${SECTION_NOTE_PREFIX} ${values.section}`;
  return body ? `${prefix}\n${body}` : prefix;
}
