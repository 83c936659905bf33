/**
 * Renders media/icon.svg to media/icon.png (128×128, transparent corners), the Marketplace icon. The SVG is
 * the source; run `npm run icon` after changing it. Chromium draws it, the same browser the end-to-end tests
 * use, so the PNG matches what a browser shows for the SVG.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH, REPO_ROOT } from './editor/paths';

const SIZE = 128;

async function main(): Promise<void> {
  const svg = readFileSync(join(REPO_ROOT, 'media', 'icon.svg'), 'utf8');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.locator('svg').screenshot({ path: join(REPO_ROOT, 'media', 'icon.png'), omitBackground: true });
  } finally {
    await browser.close();
  }
  console.log('wrote media/icon.png');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
