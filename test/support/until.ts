// Waits for a condition instead of sleeping a fixed time: polls `ok` every 20 ms and throws,
// naming `what`, once `ms` have passed. A loaded machine only makes the wait longer.
export async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
