import { launchBrowser } from './support/chromium.ts';
const s = await launchBrowser();
const page = await s.context.newPage();
await page.setViewportSize({ width: 1280, height: 1000 });
for (const id of ['S190814bv']) {
  const t = Date.now();
  await page.goto(`http://127.0.0.1:18932/gw-events/${id}`, { waitUntil: 'networkidle' });
  await page.locator('[data-testid=gw-sky-map] svg').first().waitFor({ timeout: 60000 });
  console.log(id, 'loaded in', Date.now() - t);
  await page.locator('[data-testid=gw-sky-map]').screenshot({ path: `/tmp/gw-${id}.png` });
}
await s.close();
