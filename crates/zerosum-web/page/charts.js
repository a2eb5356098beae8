// Charts the server draws (SVG from zerosum-charts: the score graph under the game, the Elo of a
// tournament's players against the games played), set into the page and scaled to its width.
"use strict";
const Charts = (() => {
  // Shows `svg` in `element`, or hides the element when there is no chart.
  function show(element, svg) {
    if (!element) return;
    element.hidden = !svg;
    element.innerHTML = svg || "";
    const chart = element.querySelector("svg");
    if (chart) {
      chart.style.maxWidth = "100%";
      chart.style.height = "auto";
    }
  }
  return { show };
})();
