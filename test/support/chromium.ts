import { accessSync, constants } from "node:fs";

/** Where Debian (chromium) and Ubuntu (chromium-browser) install Chromium; scripts/setup-chromium.sh reads the same list. */
const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium"];

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The Chromium the browser tests drive: $CHROMIUM_PATH, else the first Debian/Ubuntu location that holds one. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  const found = CANDIDATES.find(executable);
  if (!found) throw new Error(`no Chromium in ${CANDIDATES.join(", ")}: run scripts/setup-chromium.sh (npm test does) or set CHROMIUM_PATH`);
  return found;
}
