// Small chip behaviours, none of them a rule: the server marks what goes together.
// The handlers that change other inputs listen in the capture phase, so they run
// before htmx (listening on the form) reads the form and sends it.
(function () {
  // Typing in an "other" box picks its Other chip; picking a number chip empties the box,
  // so what is highlighted is always what will be saved.
  document.addEventListener("input", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches("input[data-other-for]") || box.value.trim() === "") return;
    var other = document.querySelector('input[type=radio][name="' + box.dataset.otherFor + '"][value=other]');
    if (other) other.checked = true;
  }, true);
  document.addEventListener("change", function (event) {
    var chip = event.target;
    if (chip.type !== "radio" || chip.value === "other") return;
    var box = document.querySelector('input[data-other-for="' + chip.name + '"]');
    if (box) box.value = "";
  }, true);

  // Chips the server groups with data-one-of (a gleek and a mournival of one rank):
  // choosing one unchooses the others of its group.
  document.addEventListener("change", function (event) {
    var box = event.target, group = box.closest && box.closest("[data-one-of]");
    if (box.type !== "checkbox" || !box.checked || !group) return;
    group.querySelectorAll('input[type=checkbox]').forEach(function (other) {
      if (other !== box) other.checked = false;
    });
  }, true);

  // A block the server shows only for some answers (data-hidden-when="sets=none"),
  // shown or hidden at once, with or without the connection.
  function reveal(root) {
    (root || document).querySelectorAll("[data-hidden-when]").forEach(function (block) {
      var parts = block.dataset.hiddenWhen.split("="), form = block.closest("form");
      var on = form && form.querySelector('input[name="' + parts[0] + '"][value="' + parts[1] + '"]');
      block.hidden = !!(on && on.checked);
    });
  }
  document.addEventListener("change", function () { reveal(); }, true);
  window.Gleek.reveal = reveal;

  // A button that answers several questions at once (data-answers, from the server:
  // the turned-up card's suit and rank): its chips chosen, then sent as one tap.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-answers]");
    var f = button && button.closest("form");
    if (!f) return;
    var answers = JSON.parse(button.dataset.answers), last = null, names = Object.keys(answers);
    names.forEach(function (name) {
      var chip = f.querySelector('input[name="' + name + '"][value="' + answers[name] + '"]');
      if (chip) { chip.checked = true; last = chip; }
    });
    if (!last) return;
    if (window.Gleek.store && window.Gleek.form() === f) {  // each question is one this phone changed
      var kept = window.Gleek.store.read(f) || {changed: [], actions: []};
      window.Gleek.store.write(f, {changed: window.Gleek.union(kept.changed || [], names)});
    }
    last.dispatchEvent(new Event("change", {bubbles: true}));
  });
  function pressed(root) {
    (root || document).querySelectorAll("[data-picker]").forEach(function (picker) {
      var f = picker.closest("form");
      picker.querySelectorAll("button[data-answers]").forEach(function (button) {
        var answers = JSON.parse(button.dataset.answers);
        var on = Object.keys(answers).every(function (name) {
          var chip = f && f.querySelector('input[name="' + name + '"][value="' + answers[name] + '"]');
          return chip && chip.checked;
        });
        button.setAttribute("aria-pressed", on ? "true" : "false");
      });
    });
  }
  document.addEventListener("change", function () { pressed(); });
  document.addEventListener("htmx:afterSettle", function () { pressed(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { pressed(); });
  else pressed();

  // New session: the "who deals first" and "who keeps the score" chips take the names as they are typed
  // (or, for a circle's new evening, as the members are picked for the seats).
  document.addEventListener("input", function (event) {
    var field = event.target;
    var match = field.name && field.name.match(/^(?:player|seat)_([012])$/);
    if (!match) return;
    var name = field.tagName === "SELECT" ? (field.value ? field.selectedOptions[0].textContent : "") : field.value;
    field.form.querySelectorAll('.dealer-chips input[value="' + match[1] + '"] + span').forEach(function (chip) {
      chip.textContent = name.trim() || "Seat " + (Number(match[1]) + 1);
    });
  });

  // Links and buttons that would throw something away ask first (Cancel on a
  // half-filled edit, Delete hand).
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-confirm], button[data-confirm]");
    if (link && !window.confirm(link.dataset.confirm)) event.preventDefault();
  });

  // A name box stops at its limit: say so instead of cutting silently.
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.matches || !field.matches("input[maxlength][data-limit-note]")) return;
    var note = document.getElementById(field.dataset.limitNote);
    if (note) note.hidden = field.value.length < field.maxLength;
  });

  // − and + buttons beside a number box (the card counter's counts, 0 to 4; a
  // pad's typed bid or vie, from the least it may be): change the number, then
  // let the form check it as if it had been typed (a pad's box waits for its
  // button instead: data-quiet).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.nudge[data-for]");
    if (!button) return;
    var box = document.getElementById(button.dataset.for);
    if (!box) return;
    var least = Number(button.dataset.min || 0), most = Number(button.dataset.max || 999999);
    var step = Number(button.dataset.step), typed = parseInt(box.value, 10);
    var value = isNaN(typed) ? (least > 0 ? least : Math.max(0, step)) : typed + step;
    value = Math.max(least, Math.min(most, value));
    box.value = value === 0 ? "" : String(value);
    if (!("quiet" in button.dataset)) box.dispatchEvent(new Event("change", {bubbles: true}));
  });
})();
