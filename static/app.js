// Small progressive enhancements for the hand form (the form works without them).
// Typing in an "other" box picks its Other chip; picking a number chip empties the box,
// so what is highlighted is always what will be saved.
document.addEventListener("input", function (event) {
  var box = event.target;
  if (!box.matches || !box.matches("input[data-other-for]") || box.value.trim() === "") return;
  var other = document.querySelector('input[type=radio][name="' + box.dataset.otherFor + '"][value=other]');
  if (other) other.checked = true;
});
document.addEventListener("change", function (event) {
  var chip = event.target;
  if (chip.type !== "radio" || chip.value === "other") return;
  var box = document.querySelector('input[data-other-for="' + chip.name + '"]');
  if (box) box.value = "";
});

// New session: the "who deals first" chips take the names as they are typed.
document.addEventListener("input", function (event) {
  var field = event.target;
  var match = field.name && field.name.match(/^player_([012])$/);
  if (!match) return;
  var chip = document.querySelector('.dealer-chips input[value="' + match[1] + '"] + span');
  if (chip) chip.textContent = field.value.trim() || "Seat " + (Number(match[1]) + 1);
});

// Links that would throw away answers ask first (Cancel on a half-filled hand).
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a[data-confirm]");
  if (link && !window.confirm(link.dataset.confirm)) event.preventDefault();
});

// The viewer's time zone, for the times the server writes (History, the sheet's
// "printed …"): an IANA name in the cookie "tz", read by scorekeeper/localtime.py.
// Without it (no JavaScript, the very first page) those times are UTC and say so.
(function () {
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
  if (!zone || !/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;  // IANA names need no escaping
  var cookie = "tz=" + zone;
  if (document.cookie.split("; ").indexOf(cookie) === -1) {
    document.cookie = cookie + "; path=/; max-age=31536000; samesite=lax";
  }
})();
