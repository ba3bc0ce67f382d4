/**
 * Loads the dashboard viewer's code and its charts' (uPlot) ahead of need, so that opening a dashboard from a list
 * waits for no chunk: the dashboards list calls it when it opens (the chunks load beside the list's own request; a
 * user may open a dashboard right away). Then, in the browser's idle time and one widget type at a time, the document
 * reader compiles its checks (it does so on first use otherwise: when the first dashboard opens). Once is enough;
 * failures are quiet (the route loads the code again when it is opened).
 */
let started = false;

export function preloadDashboardViewer(): void {
  if (started) return;
  started = true;
  void import('./ViewerPage.tsx')
    .then(() => Promise.all([import('../widgets/WidgetView.tsx'), import('@edgeport/dashboard-schema')]))
    .then(([widgets, schema]) => {
      widgets.preloadWidgetChunks();
      // A page with one widget of the type and nothing else: the reader compiles the type's check (the answer, a list
      // of missing fields, is of no interest).
      const types = [...schema.WIDGET_TYPES];
      const next = () => {
        const type = types.shift();
        if (type === undefined) return;
        schema.readDocument('dashboard', {
          schemaVersion: schema.DASHBOARD_SCHEMA_VERSION,
          rootPageId: 'page',
          pages: [{ id: 'page', title: '', widgets: [{ id: type, type }] }],
          slots: [],
          variables: [],
        });
        whenIdle(next);
      };
      whenIdle(next);
    })
    .catch(() => {
      started = false;
    });
}

function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run);
  else setTimeout(run, 50);
}
