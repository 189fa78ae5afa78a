// The phone's scripts share one namespace, window.Gleek; this file makes it and
// holds what they share. Each file under static/js/ does one job (base.html loads
// them in order, the service worker keeps them: static/sw.js):
//   js/chips.js      small chip behaviours (an Other box, one chip of a group, steppers, confirm)
//   js/counts.js     a count out of a total fills the last seat in, from the server's table
//   js/store.js      the hand in progress kept on this phone (localStorage)
//   js/queue.js      each tap sent, or kept and sent again when the connection is back
//   js/conflicts.js  another phone's answers: say so, offer this phone's
//   js/pads.js       the call pads offline, from the states the server prepared
//   js/presets.js    a preset tapped offline: its answers taken on the phone, from its button
//   js/sections.js   the form follows the hand: answered sections fold to one line
//   js/zone.js       the viewer's time zone, for the times the server writes
// No rule of the game is written here: what a script needs to know (which fields
// are not answers, which chips exclude each other, what fills itself in, a pad's
// legal calls) the server renders into the page from the rule book
// (scorekeeper/form/client.py). Everything works without JavaScript too.
(function () {
  var Gleek = window.Gleek = window.Gleek || {};

  Gleek.form = function () { return document.getElementById("hand-form"); };

  // What the server says of the hand form's fields (data-client, form/client.py):
  // {control: [...names], prefixes: [...], actions: [...], pads: {tap: list}}.
  Gleek.client = function (f) {
    f = f || Gleek.form();
    if (!f) return {control: [], prefixes: [], actions: [], pads: {}};
    if (!f._client) {
      try { f._client = JSON.parse(f.dataset.client || "{}"); } catch (e) { f._client = {}; }
    }
    return f._client;
  };
  // A field that is not an answer (the form's version, a section's signature, a tap).
  Gleek.isControl = function (name, f) {
    var c = Gleek.client(f);
    return (c.control || []).indexOf(name) >= 0 ||
      (c.prefixes || []).some(function (p) { return name.indexOf(p) === 0; });
  };
  // A section's payments as words, a player each ("Ann +6"), from its status's list
  // (the list's items touch: its text alone runs together, "Ann +6Ben −12").
  Gleek.payments = function (status) {
    return Array.prototype.map.call(status.querySelectorAll(".phase-result li"), function (li) {
      var who = li.querySelector(".who"), amount = li.querySelector(".amt");
      return ((who ? who.textContent : "") + " " + (amount ? amount.textContent : "")).trim();
    });
  };
  Gleek.union = function (a, b) { return a.concat(b.filter(function (x) { return a.indexOf(x) < 0; })); };
  Gleek.json = function (el) {
    try { return JSON.parse(el.textContent || "null"); } catch (e) { return null; }
  };
})();
