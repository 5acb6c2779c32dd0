// "Firefox on Linux": a session's User-Agent header in the words people know their devices by.
// Order matters: Edge and Opera say Chrome too, Chrome says Safari, iPhones say Mac OS X.

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (patterns: [RegExp, string][], userAgent: string): string | undefined =>
  patterns.find(([pattern]) => pattern.test(userAgent))?.[1];

export function describeUserAgent(userAgent: string | null): string {
  if (userAgent === null || userAgent.trim() === '') return 'Unknown browser';
  const headless = /\bHeadlessChrome\//.test(userAgent);
  const browser = headless ? 'Headless Chrome' : first(BROWSERS, userAgent);
  const system = first(SYSTEMS, userAgent);
  if (browser === undefined) return system === undefined ? 'Unknown browser' : `A browser on ${system}`;
  return system === undefined ? browser : `${browser} on ${system}`;
}
