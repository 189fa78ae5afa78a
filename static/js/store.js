// The hand in progress kept on this phone (localStorage), so a dropped Wi-Fi, a
// reload or a locked screen loses nothing. One entry per table and hand:
// {number, answers: [[name, value]…], draftVersion, changed: [names changed
// since the server last answered], actions: [taps waiting to be sent],
// pending, saveTapped, refused}.
(function () {
  var G = window.Gleek;
  function editing(f) { return f.dataset.editing === "yes"; }
  function key(f) { return "gleek:" + f.dataset.session + ":" + (editing(f) ? "hand-" + f.dataset.number : "next"); }
  function field(f, name) { var input = f.querySelector('input[name="' + name + '"]'); return input ? input.value : ""; }
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
    kept.number = f.dataset.number;
    kept.answers = answers(f);
    kept.draftVersion = field(f, "draft_version");
    Object.keys(changes || {}).forEach(function (k) { kept[k] = changes[k]; });
    keep(f, kept);
    return kept;
  }
  function forget(f) { try { localStorage.removeItem(key(f)); } catch (e) {} }
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
  G.store = {editing: editing, field: field, answers: answers, read: read, keep: keep, write: write,
             forget: forget, fill: fill};
})();
