import type { SettingsDraft, TableRow } from '../lib/settings-draft';
import { useHostT } from '../lib/host-i18n';
import { useFieldFault } from './settings-fault';
import type { DraftUpdate } from './settings-screen';

/** At most this many table sizes (the contract's `tables`, docs/product.md §2). */
const MAX_ROWS = 12;

/**
 * The tables the venue has, by seats (docs/product.md §2): the wait estimate follows which are busy
 * (docs/decisions/022-wait-estimates.md). No rows: not given.
 */
export function SettingsTables({ draft, update }: { draft: SettingsDraft; update: DraftUpdate }) {
  const { t } = useHostT();
  const setRows = (change: (rows: TableRow[]) => TableRow[]) => update((d) => ({ ...d, tablesRows: change(d.tablesRows) }));
  const setCell = (index: number, key: keyof TableRow, value: string) =>
    setRows((rows) => rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)));
  const rows = draft.tablesRows;
  const fault = useFieldFault('settings.tables', 'tables-hint');
  return (
    // The whole group is what a refusal of the tables marks and focuses (settings-fault.tsx).
    <fieldset className="host-group" tabIndex={-1} {...fault.input}>
      <legend>{t('settings.tables')}</legend>
      {fault.message}
      <p id="tables-hint" className="host-hint">
        {t('settings.tablesHint')}
      </p>
      {rows.length === 0 && <p className="host-hint">{t('settings.tablesNone')}</p>}
      {rows.map((row, index) => (
        <div key={index} className="host-row">
          <NumberCell
            label={t('settings.tableSeats')}
            name={t('settings.tableSeatsRow', { row: index + 1 })}
            max={40}
            value={row.seats}
            onChange={(value) => setCell(index, 'seats', value)}
          />
          <NumberCell
            label={t('settings.tableCount')}
            name={t('settings.tableCountRow', { row: index + 1 })}
            max={200}
            value={row.count}
            onChange={(value) => setCell(index, 'count', value)}
          />
          <button
            type="button"
            className="button button--secondary button--small"
            aria-label={t('settings.tableRemoveRow', { row: index + 1 })}
            onClick={() => setRows((all) => all.filter((_, i) => i !== index))}
          >
            {t('settings.tableRemove')}
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={rows.length >= MAX_ROWS}
        onClick={() => setRows((all) => [...all, { seats: '', count: '' }])}
      >
        {t('settings.tableAdd')}
      </button>
    </fieldset>
  );
}

/** One whole number of a row: its visible label, and a name that says which row it is. */
function NumberCell(props: { label: string; name: string; max: number; value: string; onChange: (value: string) => void }) {
  return (
    <label className="host-field host-field--inline">
      <span aria-hidden="true">{props.label}</span>
      <input
        type="number"
        inputMode="numeric"
        min={1}
        max={props.max}
        step={1}
        value={props.value}
        aria-label={props.name}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}
