/** The shapes the upload readers share (sources.ts, xlsx-source.ts). */
import type { EncodingChoice } from '@skiptrace/runtime';

export type SourceItem = { cells: unknown[] } | { invalid: string; text: string };

/** What a reader found out about the file as it read it (shown by the preview and the upload's answer). */
export interface SourceInfo {
  /** The text encoding and what chose it (text formats). */
  encoding?: EncodingChoice;
  /** The CSV field delimiter, given or sniffed. */
  delimiter?: string;
  /** XLSX: the sheet read, and the sheets seen before it was chosen. */
  sheet?: string;
  sheets?: string[];
}

export interface RecordSource {
  columns: string[];
  items: AsyncIterable<SourceItem>;
  info: SourceInfo;
}

export type Format = 'csv' | 'ndjson' | 'json' | 'xlsx';

/** The bounds a reader enforces (BatchesConfig). */
export interface SourceLimits {
  /** Longest row, bytes; longer → 413. */
  maxRowBytes: number;
  /** Most columns; more → 400, the upload fails. */
  maxColumns: number;
  /** XLSX: most bytes the workbook (and what it unpacks to) may hold; more → 413. Default 1 GiB. */
  maxInflatedBytes?: number;
  /** XLSX: most bytes unpacked per byte packed, judged past 1 MiB; more → 413. Default 200. */
  maxInflationRatio?: number;
}

/** How a file is to be read, beyond its format: what the caller declared or chose. */
export interface ReadOptions {
  /** Declared text encoding (Content-Type charset, ?charset=, --charset); else detected. */
  charset?: string;
  /** CSV field delimiter (`,` `;` tab `|`); else sniffed from the first lines. */
  delimiter?: string;
  /** XLSX sheet, by name or 1-based position; else the first. */
  sheet?: string;
}
