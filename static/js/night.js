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

// The big screen fits its window: a projector cannot scroll. Its type is scaled down
// (the root's size, which every rem follows) until nothing runs past the bottom or the
// right, never below MIN_PX; where even that is too big (a night of many players), the
// standings' players, and the round's tables beside them, are shown a page at a time
// (each side as many as fit), the next page every PAGE_SECONDS, a line under each saying
// which ("Players 13–24 of 60"). Fitted again after every poll's swap and when the window
// changes size; the pages shown go on from where they were.
(function () {
  var MAX_PX = 16, MIN_PX = 10, PAGE_SECONDS = 8;
  var root = document.documentElement;
  var pagers = [
    { side: ".standings-side", items: "table.standings tbody tr", label: "Players", page: 0, pages: 1, per: 0 },
    { side: ".rounds-side", items: ".night-tables li", label: "Tables", page: 0, pages: 1, per: 0 }
  ];

  function part() { return document.querySelector("#standings.screen"); }
  function within(pager, selector) {
    var side = part() && part().querySelector(pager.side);
    return side ? side.querySelectorAll(selector) : [];
  }
  function items(pager) { return Array.prototype.slice.call(within(pager, pager.items)); }
  function note(pager) { return within(pager, ".screen-page")[0] || null; }
  function overflows() {
    var box = document.querySelector("#standings.screen .scroll");
    return root.scrollHeight > window.innerHeight || root.scrollWidth > window.innerWidth
      || (box !== null && box.scrollWidth > box.clientWidth);
  }
  function bottom(pager) {
    var side = part().querySelector(pager.side);
    return side === null ? 0 : side.getBoundingClientRect().bottom + window.scrollY;
  }
  var below = 0;   // what the page has below its taller side (the card's padding, the page's margins)
  function sideOverflows(pager) { return bottom(pager) + below > window.innerHeight; }
  function show(pager) {
    var all = items(pager), line = note(pager);
    all.forEach(function (item, i) { item.hidden = pager.pages > 1 && Math.floor(i / pager.per) !== pager.page; });
    if (!line) return;
    line.hidden = pager.pages <= 1;
    var first = pager.page * pager.per + 1, last = Math.min(all.length, (pager.page + 1) * pager.per);
    line.textContent = pager.pages > 1 ? pager.label + " " + first + "–" + last + " of " + all.length : "";
  }
  function fit() {
    if (!part()) return;
    pagers.forEach(function (pager) {
      items(pager).forEach(function (item) { item.hidden = false; });
      if (note(pager)) { note(pager).hidden = true; }
    });
    var low = MIN_PX, high = MAX_PX;
    root.style.fontSize = high + "px";
    if (overflows()) {   // the largest type that fits, to a quarter pixel
      while (high - low > 0.25) {
        var middle = (low + high) / 2;
        root.style.fontSize = middle + "px";
        if (overflows()) { high = middle; } else { low = middle; }
      }
      root.style.fontSize = low + "px";
    }
    below = Math.max(0, root.scrollHeight - Math.max.apply(null, pagers.map(bottom)));
    pagers.forEach(function (pager) {   // too many even so: as many a page as fit, side by side
      var all = items(pager), line = note(pager);
      pager.pages = 1;
      pager.per = all.length;
      if (all.length > 1 && sideOverflows(pager)) {
        if (line) { line.hidden = false; line.textContent = pager.label + " 1–" + all.length + " of " + all.length; }
        var shown = all.length;
        while (shown > 1 && sideOverflows(pager)) { shown -= 1; all[shown].hidden = true; }
        pager.per = shown;
        pager.pages = Math.ceil(all.length / shown);
      }
      pager.page = pager.page % pager.pages;
      show(pager);
    });
  }
  if (!document.body.classList.contains("big-screen")) return;
  fit();
  document.addEventListener("htmx:afterSettle", fit);
  window.addEventListener("resize", fit);
  setInterval(function () {
    pagers.forEach(function (pager) {
      if (pager.pages > 1) { pager.page = (pager.page + 1) % pager.pages; show(pager); }
    });
  }, PAGE_SECONDS * 1000);
})();
