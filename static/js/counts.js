// Counts out of a total (tricks): once two seats are chosen the third fills
// itself in at once, with or without the connection. What it fills in is the
// server's (data-fills on "<field>_auto": the question's own reader, run for
// every pair of counts); "<field>_auto" remembers which count was the form's
// guess, so choosing another seat refills it.
(function () {
  document.addEventListener("change", function (event) {
    var chip = event.target, match = chip.type === "radio" && chip.name.match(/^(.+)_([012])$/);
    var auto = match && document.querySelector('input[name="' + match[1] + '_auto"][data-fills]');
    if (!auto) return;
    var fills = auto._fills || (auto._fills = JSON.parse(auto.dataset.fills || "{}"));
    var guess = auto.value.split(":"), chosen = [];
    for (var seat = 0; seat < 3; seat++) {
      var on = document.querySelector('input[name="' + match[1] + "_" + seat + '"]:checked');
      var mine = on && !(String(seat) === guess[0] && on.value === guess[1] && String(seat) !== match[2]);
      if (mine) chosen.push(seat + ":" + on.value);
    }
    var fill = chosen.length === 2 && fills[chosen.join(",")];
    if (!fill) return;  // not two seats, or too many: the server says so
    var parts = fill.split(":");
    var box = document.querySelector('input[name="' + match[1] + "_" + parts[0] + '"][value="' + parts[1] + '"]');
    if (!box) return;
    box.checked = true;
    auto.value = fill;
  }, true);  // capture: before htmx (listening on the form) sends it
})();
