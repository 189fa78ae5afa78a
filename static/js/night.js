// A club night's time left: each [data-ends-at] counts down every second (the
// standings poll answers 204 while nothing is saved, so the page keeps the clock).
(function () {
  function tick() {
    document.querySelectorAll("[data-ends-at]").forEach(function (el) {
      var left = Math.round((Date.parse(el.dataset.endsAt) - Date.now()) / 1000);
      if (isNaN(left)) return;
      if (left <= 0) { el.textContent = "time is up"; return; }
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = m + ":" + (s < 10 ? "0" : "") + s + " left";
    });
  }
  tick();
  setInterval(tick, 1000);
})();

// The standings' box keeps where it was scrolled to when a save anywhere brings the
// new standings: the poll replaces the whole part (its table changes, so it cannot be
// left in place), and a box put in anew starts at its left edge.
(function () {
  var kept = null;
  function box() { return document.querySelector("#standings .scroll"); }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var old = box();
    if (old && event.detail.shouldSwap && event.detail.target && event.detail.target.contains(old)) {
      kept = { left: old.scrollLeft, top: old.scrollTop };
    }
  });
  function restore() {
    var now = box();
    if (!kept || !now) return;
    now.scrollLeft = kept.left;
    now.scrollTop = kept.top;
  }
  document.addEventListener("htmx:afterSwap", restore);
  document.addEventListener("htmx:afterSettle", function () { restore(); kept = null; });
})();
