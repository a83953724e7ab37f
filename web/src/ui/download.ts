// Offering a file for download from the page (a blob URL; no network), shared by the
// export and share menus and the comparison's downloads.

/** Offer a file for download. */
export function download(filename: string, data: Blob | string, type = 'text/plain'): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A safe file-name stem from a scenario line: "bast-classroom-16x4". */
export function fileStem(...parts: (string | number | undefined)[]): string {
  return (
    parts
      .filter((p) => p !== undefined && p !== '')
      .join('-')
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'ftlscope'
  );
}
