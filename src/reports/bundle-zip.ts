/** A file to put in a bundle: its name inside the zip, and its bytes. */
export interface BundleEntry {
  readonly name: string;
  readonly data: Buffer;
}

/** The entries as one zip archive (yazl, loaded on first use), compressed, with the time given as their date. */
export async function zipBundle(entries: readonly BundleEntry[], mtime: Date): Promise<Buffer> {
  const { ZipFile } = (await import('yazl')).default;
  const zip = new ZipFile();
  for (const e of entries) zip.addBuffer(e.data, e.name, { mtime, mode: 0o100600 });
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', resolve);
    zip.outputStream.on('error', reject);
  });
  zip.end();
  await done;
  return Buffer.concat(chunks);
}
