/** Hands a downloaded file to the browser's own save flow, under the given name. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // the click has started the download; the object URL is no longer needed once it has been read
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
