// A preset ("Quiet hand …", "Ben (eldest) bought at 12") tapped with no
// connection is taken on the phone: its answers, as the server rendered them on
// its button (data-fills: HandForm.preset_fields, question by question), go into
// the form, so this phone's copy of the hand (js/store.js) holds them — a page
// closed before the connection is back loses none of them — and the server
// checks them with the other answers when it is back. No rule is written here.
(function () {
  var G = window.Gleek;

  function fills(button) {
    try { return JSON.parse(button.dataset.fills || "null"); } catch (e) { return null; }
  }
  // Something is chosen or typed for one of these fields (an empty list of calls is nothing).
  function answered(f, fields) {
    return Object.keys(fields).some(function (name) {
      return Array.prototype.some.call(f.querySelectorAll('input[name="' + name + '"]'), function (input) {
        if (input.type === "radio" || input.type === "checkbox") return input.checked;
        return input.value !== "" && input.value !== "[]";
      });
    });
  }
  function put(f, name, value) {
    var values = Array.isArray(value) ? value.map(String) : [String(value)];
    f.querySelectorAll('input[name="' + name + '"]').forEach(function (input) {
      if (input.type === "radio" || input.type === "checkbox") input.checked = values.indexOf(input.value) >= 0;
      else input.value = values.length ? values[0] : "";
    });
  }
  // Take a preset's tap ([name, value]) on the phone; false if it is not a preset's
  // (or its button says nothing of its answers: then it waits, queued, as before).
  function take(f, tapped) {
    if (tapped[0] !== "preset") return false;
    var button = f.querySelector('button[name="preset"][value="' + tapped[1] + '"]');
    var preset = button && fills(button);
    if (!preset || !preset.questions) return false;
    var names = [];
    preset.questions.forEach(function (fields) {
      if (!preset.every && answered(f, fields)) return;  // an answer already there is left as it is
      Object.keys(fields).forEach(function (name) { put(f, name, fields[name]); names.push(name); });
    });
    var kept = G.store.read(f) || {changed: [], actions: []};
    G.store.write(f, {changed: G.union(kept.changed || [], names)});
    if (G.reveal) G.reveal();
    button.classList.add("queued");  // shown as waiting until the server has checked it
    return true;
  }
  G.presets = {take: take};
})();
