/**
 * A size in bytes as people read it on the upload page: MB below a gigabyte, GB from there. Binary
 * units, as the quota is set (`UPLOAD_QUOTA_MB` × 1024 × 1024), so a 2048 MB quota reads "2 GB".
 */
const MB = 1024 * 1024;
const GB = 1024 * MB;

export function byteSize(bytes: number): string {
  const [value, unit] = bytes >= GB ? [bytes / GB, 'gigabyte'] : [bytes / MB, 'megabyte'];
  // One decimal only where it still says something ("0.3 MB", "1.5 GB"; not "312.4 MB").
  const digits = value < 10 ? 1 : 0;
  return new Intl.NumberFormat('en', { style: 'unit', unit, maximumFractionDigits: digits }).format(value);
}
