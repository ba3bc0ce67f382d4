/** What a like changes on a catalogue app. */
export type LikeState = { liked: boolean; likeCount: number };

/** The app as it looks right after the user pressed the like button (shown at once, rolled back on failure). */
export function toggledLike<App extends LikeState>(app: App): App {
  const liked = !app.liked;
  return { ...app, liked, likeCount: Math.max(0, app.likeCount + (liked ? 1 : -1)) };
}

/** Replaces one app (by id) in a catalogue page with `change(app)`; other apps and pages stay the same objects. */
export function updateApp<Page extends { items: { id: string }[] }>(
  page: Page | undefined,
  id: string,
  change: (app: Page['items'][number]) => Page['items'][number],
): Page | undefined {
  if (!page?.items.some((app) => app.id === id)) return page;
  return { ...page, items: page.items.map((app) => (app.id === id ? change(app) : app)) };
}
