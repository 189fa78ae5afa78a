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
