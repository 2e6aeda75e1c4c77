/**
 * The mapping step's preview of a chosen file, read by the server with the upload's own
 * reader (POST /property/skiptrace/batches/preview): the same decoder, encoding detection,
 * delimiter sniffing, sheet choice and column rules, so what the preview shows is what the
 * batch gets. A text file sends only its first 256 KiB (files reach a million rows); a
 * workbook is a ZIP whose parts may be anywhere in it, so it is sent whole.
 */
import { previewBatch, type BatchPreview, type ReadChoice, type UploadFormat } from './api.ts';

export type { UploadFormat };

export type FilePreview = BatchPreview;

const HEAD_BYTES = 256 * 1024;

export function formatOf(file: File): UploadFormat {
  const name = file.name.toLowerCase();
  if (name.endsWith('.xlsx')) return 'xlsx';
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson';
  if (name.endsWith('.json')) return 'json';
  return 'csv';
}

export async function previewFile(file: File, read: ReadChoice = {}): Promise<FilePreview> {
  const format = formatOf(file);
  const partial = format !== 'xlsx' && file.size > HEAD_BYTES;
  return previewBatch(partial ? file.slice(0, HEAD_BYTES) : file, format, read, partial);
}
