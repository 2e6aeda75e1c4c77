-- owner: @skiptrace/batches
-- A batch row's outcome as the CSV export prints it, rendered once by the writer of the row
-- (the chunk handler, a cancel, a fail: packages/batches/src/results.ts) from the result
-- objects it holds, so the export splices text instead of parsing every row's results JSON
-- (2.3 kB with the owner model) and owner facts again. Two runs of cells, each joined with
-- commas, on either side of the `row` cell (the input row number, which the export adds):
-- csv_before the phone groups, the owners of record and the mailing address used;
-- csv_after confidence, status, error, truncated and people_total. NULL in both for rows
-- stored before this migration (or whose text could not be passed): the export renders
-- those from `results` and `owner_facts` with the same function. Nullable, no default:
-- ADD COLUMN rewrites nothing, and a replica still on the previous release inserts NULLs.
ALTER TABLE batch_results ADD COLUMN IF NOT EXISTS csv_before text;
ALTER TABLE batch_results ADD COLUMN IF NOT EXISTS csv_after text;
