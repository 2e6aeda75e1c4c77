/** History: the account's results, newest first, a page at a time, each with erase. */
import { addressLine } from '@skiptrace/batches/owner-text';
import { useEffect, useState, type ReactNode } from 'react';
import { erase, listTraces, type PropertyResponse } from '../api.ts';
import { RoleBadges, TraceResultView } from '../components/trace-result.tsx';
import { Card, ConfirmButton, DataTable, ErrorNotice, PageHeader, StatusBadge, useAction } from '../components/ui.tsx';
import { when } from '../format.ts';

const PAGE_SIZE = 20;

const address = (r: PropertyResponse): string => (r.property ? addressLine(r.property) : `Property ${r.id}`);

export function HistoryPage() {
  const [rows, setRows] = useState<PropertyResponse[]>([]);
  /** Cursors of the pages before this one (undefined: the newest page). */
  const [trail, setTrail] = useState<(string | undefined)[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [next, setNext] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);

  const load = useAction(async (at?: string) => {
    const page = await listTraces(PAGE_SIZE, at);
    setRows(page.items);
    setNext(page.next);
    setCursor(at);
  });
  useEffect(() => void load.run(undefined), []);

  const remove = useAction(async (id: number) => {
    await erase(id);
    setRows((r) => r.filter((x) => x.id !== id));
  });
  const older = () => {
    setTrail([...trail, cursor]);
    void load.run(next ?? undefined);
  };
  const newer = () => {
    const back = trail.slice(0, -1);
    const target = trail[trail.length - 1];
    setTrail(back);
    void load.run(target);
  };

  return (
    <>
      <PageHeader
        title="History"
        lead="Every property your account traced — one at a time or in batches — newest first. Erasing removes the property and its results."
      />
      <Card
        title={`Results${trail.length ? ` · page ${trail.length + 1}` : ''}`}
        actions={
          <div className="pager">
            <button
              type="button"
              className="button secondary small"
              disabled={!trail.length || load.busy}
              onClick={newer}
            >
              Newer
            </button>
            <button type="button" className="button secondary small" disabled={!next || load.busy} onClick={older}>
              Older
            </button>
          </div>
        }
      >
        <ErrorNotice error={load.error ?? remove.error} />
        <DataTable
          columns={[
            'Traced',
            'Property',
            'Status',
            'Best match',
            { label: 'Phones', num: true },
            { label: 'Actions', hidden: true },
          ]}
          rows={rows.length}
          busy={load.busy}
          empty="Nothing traced yet."
        >
          {rows.map((r) => {
            const best = r.results[0];
            return (
              <HistoryRow
                key={r.id}
                result={r}
                address={address(r)}
                best={
                  best ? (
                    <>
                      {best.first_name} {best.last_name} ({Math.round(best.confidence * 100)} %){' '}
                      <RoleBadges person={best} />
                    </>
                  ) : (
                    '—'
                  )
                }
                phones={r.results.reduce((n, p) => n + p.phones.length, 0)}
                open={open === r.id}
                onToggle={() => setOpen(open === r.id ? null : r.id)}
                onErase={() => void remove.run(r.id)}
              />
            );
          })}
        </DataTable>
      </Card>
    </>
  );
}

function HistoryRow(props: {
  result: PropertyResponse;
  address: string;
  best: ReactNode;
  phones: number;
  open: boolean;
  onToggle: () => void;
  onErase: () => void;
}) {
  const { result } = props;
  return (
    <>
      <tr>
        <td className="nowrap">{when(result.created_at)}</td>
        <td>{props.address}</td>
        <td>
          <StatusBadge status={result.status} />
        </td>
        <td>{props.best}</td>
        <td className="num">{props.phones}</td>
        <td className="actions-cell">
          <div className="row-actions">
            <button
              type="button"
              className="button ghost small"
              aria-expanded={props.open}
              aria-label={`Details of property ${result.id}`}
              onClick={props.onToggle}
            >
              Details
            </button>
            <ConfirmButton
              label={`Erase property ${result.id}`}
              text="Erase"
              confirmLabel="Erase for good"
              small
              onConfirm={props.onErase}
            />
          </div>
        </td>
      </tr>
      {props.open && (
        <tr className="detail-row">
          <td colSpan={6}>
            <TraceResultView result={result} />
          </td>
        </tr>
      )}
    </>
  );
}
