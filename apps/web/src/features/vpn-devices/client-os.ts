/** The operating-system values of remote-access calls (spec 3): Linux, Mac, Win, or empty when unknown. */
export type RemoteClientOs = 'Linux' | 'Mac' | 'Win' | '';

type NavigatorLike = {
  userAgent?: string;
  platform?: string;
  userAgentData?: { platform?: string };
};

/**
 * The browser's operating system as the remote-access calls name it. Android and iOS are not among them (their
 * user agents also say Linux or Mac), so they count as unknown.
 */
export function detectClientOs(source: NavigatorLike = navigator): RemoteClientOs {
  const text = `${source.userAgentData?.platform ?? ''} ${source.platform ?? ''} ${source.userAgent ?? ''}`;
  if (/android|iphone|ipad|ipod/i.test(text)) return '';
  if (/win/i.test(text)) return 'Win';
  if (/mac/i.test(text)) return 'Mac';
  if (/linux|x11|cros/i.test(text)) return 'Linux';
  return '';
}
