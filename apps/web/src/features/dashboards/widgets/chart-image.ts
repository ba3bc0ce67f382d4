import type uPlot from 'uplot';

/**
 * A uPlot plugin that shows the chart as a picture of its canvas, taken after every draw (the editor's previews). The
 * canvas itself is not shown: Chromium gives every canvas a compositor layer of its own, and every widget painted
 * after one and overlapping it then needs a layer too. With the charts of a 50-widget page as canvases, each undo and
 * redo frame of the editor took about a third longer (bench/dashboards). The picture is encoded off the critical path
 * (`toBlob`); the last one stays in place until the next is ready.
 */
export function chartImagePlugin(className: string): uPlot.Plugin {
  let image: HTMLImageElement | null = null;
  let url: string | null = null;
  let drawn = 0;
  const show = (blob: Blob | null, draw: number) => {
    // A blob of an older draw, or of a chart already destroyed, is dropped.
    if (!blob || !image || draw !== drawn) return;
    const next = URL.createObjectURL(blob);
    image.src = next;
    if (url) URL.revokeObjectURL(url);
    url = next;
  };
  return {
    hooks: {
      init: [
        (chart) => {
          const canvas = chart.ctx.canvas;
          image = document.createElement('img');
          image.className = className;
          image.alt = '';
          image.dataset.chartImage = '';
          canvas.style.display = 'none';
          canvas.after(image);
        },
      ],
      draw: [
        (chart) => {
          const draw = ++drawn;
          chart.ctx.canvas.toBlob((blob) => show(blob, draw));
        },
      ],
      destroy: [
        () => {
          image?.remove();
          image = null;
          if (url) URL.revokeObjectURL(url);
          url = null;
        },
      ],
    },
  };
}
