// The hand in progress kept on this phone (localStorage), so a dropped Wi-Fi, a
// reload or a locked screen loses nothing. One entry per table and hand:
// {number, answers: [[name, value]…], draftVersion, changed: [names changed
// since the server last answered], actions: [taps waiting to be sent],
// pending, queued (taps kept while there was no connection, not yet taken by the
// server), saveTapped, refused, draft, version, check and save (the form's
// draft token, session version and URLs: what sends it from any page once the
// form is closed), held (this phone's copy of a hand the server
// refused when it was sent from the queue — {number, answers, draftVersion,
// changed} — kept, whatever else is saved, until the scorer uses it or says to
// keep the hand shown: js/conflicts.js)}.
(function () {
  var G = window.Gleek;
  function editing(f) { return f.dataset.editing === "yes"; }
  function key(f) { return "gleek:" + f.dataset.session + ":" + (editing(f) ? "hand-" + f.dataset.number : "next"); }
  function field(f, name) { var input = f.querySelector('input[name="' + name + '"]'); return input ? input.value : ""; }
  // the hand the form shows: the server's "number" (a conflict can move the form
  // on to the next hand), else the page's (an edit)
  function number(f) { return field(f, "number") || f.dataset.number; }
  function answers(f) {
    var out = [];
    new FormData(f).forEach(function (value, name) { if (!G.isControl(name, f)) out.push([name, value]); });
    return out;
  }
  function read(f) {
    try { return JSON.parse(localStorage.getItem(key(f)) || "null"); } catch (e) { return null; }
  }
  function keep(f, kept) { try { localStorage.setItem(key(f), JSON.stringify(kept)); } catch (e) { /* full: the server copy remains */ } }
  // The answers as the form shows them now, with ``changes`` to the entry.
  function write(f, changes) {
    var kept = read(f) || {changed: [], actions: []};
    kept.number = number(f);
    kept.answers = answers(f);
    kept.draftVersion = field(f, "draft_version");
    // what sends it from any page of the app, this form closed (js/queue.js sendKept)
    kept.draft = field(f, "draft");
    kept.version = field(f, "version");
    kept.check = f.getAttribute("hx-post");
    var save = f.querySelector("button.save");
    kept.save = save ? save.getAttribute("hx-post") : "";
    Object.keys(changes || {}).forEach(function (k) { kept[k] = changes[k]; });
    keep(f, kept);
    return kept;
  }
  // The hand is saved (or cancelled): nothing of it is kept, but a copy the server
  // refused stays until the scorer has chosen what to do with it.
  function forget(f) {
    var held = (read(f) || {}).held;
    if (held) { keep(f, {held: held, changed: [], actions: []}); return; }
    try { localStorage.removeItem(key(f)); } catch (e) {}
  }
  // Every new hand kept on this phone, whatever page is open: [{key, kept}].
  function hands() {
    var out = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var name = localStorage.key(i);
        if (!/^gleek:.+:next$/.test(name)) continue;
        try { out.push({key: name, kept: JSON.parse(localStorage.getItem(name) || "null")}); } catch (e) {}
      }
    } catch (e) { /* no storage: nothing kept */ }
    return out;
  }
  // ``kept`` null: nothing of that hand is kept any more.
  function keepAt(name, kept) {
    try { if (kept) localStorage.setItem(name, JSON.stringify(kept)); else localStorage.removeItem(name); } catch (e) {}
  }
  // The same answers (in any order)?
  function same(a, b) {
    var key = function (pair) { return JSON.stringify(pair); };
    return (a || []).map(key).sort().join() === (b || []).map(key).sort().join();
  }
  // Kept answers put back into the form.
  function fill(f, kept) {
    var values = {};
    kept.answers.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    Object.keys(values).forEach(function (name) {
      f.querySelectorAll('input[name="' + name + '"]').forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") input.checked = values[name].indexOf(input.value) >= 0;
        else input.value = values[name][0];
      });
    });
  }
  G.store = {editing: editing, field: field, number: number, answers: answers, read: read, keep: keep, write: write,
             forget: forget, fill: fill, same: same, hands: hands, keepAt: keepAt};
})();
