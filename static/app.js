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

// Links and buttons that would throw something away ask first (Cancel on a
// half-filled edit, Delete hand).
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a[data-confirm], button[data-confirm]");
  if (link && !window.confirm(link.dataset.confirm)) event.preventDefault();
});

// Sets: a gleek and a mournival of one rank cannot both be held: choosing one unchooses the other.
document.addEventListener("change", function (event) {
  var box = event.target;
  if (box.type !== "checkbox" || !box.checked || !/^set_[012]$/.test(box.name)) return;
  var rank = box.value.split(":")[1];
  document.querySelectorAll('input[name="' + box.name + '"]').forEach(function (other) {
    if (other !== box && other.value.split(":")[1] === rank) other.checked = false;
  });
});

// A name box stops at its limit: say so instead of cutting silently.
document.addEventListener("input", function (event) {
  var field = event.target;
  if (!field.matches || !field.matches("input[maxlength][data-limit-note]")) return;
  var note = document.getElementById(field.dataset.limitNote);
  if (note) note.hidden = field.value.length < field.maxLength;
});

// ---------------------------------------------------------------------------
// The hand form keeps every answer on this phone too (localStorage), so a
// dropped Wi-Fi loses nothing: a request that gets no answer shows it at once,
// the form stays usable (its messages marked as waiting), and the answers —
// and a Save that was tapped — are sent again when the connection is back.
// The server keeps the hand in progress as well (every tap is stored there);
// the two copies are reconciled by the version of the hand in progress.
// No service worker: a LAN address over http is not a secure context.
(function () {
  var OFFLINE = "No connection — your answers are kept on this phone and will be sent when it's back.";
  var CONTROL = /^(version|draft_version|draft|preset|sig_.*)$/;
  var retryTimer = null;

  function form() { return document.getElementById("hand-form"); }
  function storageKey(f) {
    return "gleek:" + f.dataset.session + ":" + (f.dataset.editing === "yes" ? "hand-" + f.dataset.number : "next");
  }
  function answers(f) {
    var out = [];
    new FormData(f).forEach(function (value, name) { if (!CONTROL.test(name)) out.push([name, value]); });
    return out;
  }
  function draftVersion(f) {
    var input = f.querySelector('input[name="draft_version"]');
    return input ? input.value : "";
  }
  function read(f) {
    try { return JSON.parse(localStorage.getItem(storageKey(f)) || "null"); } catch (e) { return null; }
  }
  function write(f, changes) {
    var kept = read(f) || {};
    kept.number = f.dataset.number;
    kept.answers = answers(f);
    kept.draftVersion = draftVersion(f);
    Object.keys(changes || {}).forEach(function (k) { kept[k] = changes[k]; });
    try { localStorage.setItem(storageKey(f), JSON.stringify(kept)); } catch (e) { /* storage full: the server copy remains */ }
    return kept;
  }
  function forget(f) { try { localStorage.removeItem(storageKey(f)); } catch (e) {} }
  function status(f, text) {
    var line = document.getElementById("connection");
    if (line) { line.textContent = text || ""; line.hidden = !text; }
    f.classList.toggle("waiting", !!text);
  }
  function isSave(elt) { return elt && elt.classList && elt.classList.contains("save"); }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var f = form();
    if (f && f.contains(event.detail.elt)) write(f, {pending: true, saveTapped: isSave(event.detail.elt) || (read(f) || {}).saveTapped});
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var f = form(), xhr = event.detail.xhr;
    if (!f || !f.contains(event.detail.elt) || !xhr || !xhr.status) return;  // no answer: see sendError
    status(f, "");
    clearInterval(retryTimer); retryTimer = null;
    if (xhr.getResponseHeader("HX-Redirect")) { forget(f); return; }  // saved (or cancelled)
    if (xhr.status === 409) { offerMine(f); return; }                    // another phone changed it
    var kept = write(f, {pending: false});
    if (kept.saveTapped && xhr.status < 300 && !isSave(event.detail.elt)) save(f);
  });
  function lost(event) {
    var f = form();
    if (!f || !f.contains(event.detail.elt)) return;
    write(f, {pending: true, saveTapped: isSave(event.detail.elt) || (read(f) || {}).saveTapped});
    status(f, OFFLINE);
    if (!retryTimer) retryTimer = setInterval(retry, 4000);
  }
  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);
  window.addEventListener("online", retry);

  function retry() {
    var f = form();
    if (!f || !(read(f) || {}).pending) { clearInterval(retryTimer); retryTimer = null; return; }
    htmx.trigger(f, "change");  // the answers as the page shows them now; a tapped Save follows
  }
  function save(f) {
    var button = f.querySelector("button.save");
    if (button) button.click();
  }

  // After a conflict, or a reload with answers this phone never got to send:
  // offer to send this phone's answers (never drop them silently).
  function offerMine(f) {
    var kept = read(f);
    if (!kept || !kept.answers || document.getElementById("use-mine")) return;
    var bar = document.createElement("p");
    bar.className = "flash warn mine";
    bar.id = "use-mine";
    bar.append("This phone has answers for hand " + kept.number + " that are not in the hand shown. ");
    var use = document.createElement("button");
    use.type = "button";
    use.textContent = "Use this phone's answers";
    use.addEventListener("click", function () { sendMine(f, kept); });
    var drop = document.createElement("button");
    drop.type = "button";
    drop.textContent = "Keep the hand shown";
    drop.addEventListener("click", function () { forget(f); bar.remove(); });
    bar.append(use, " ", drop);
    var summary = document.getElementById("hand-summary");
    (summary || f).prepend(bar);
  }
  function sendMine(f, kept) {
    var body = new URLSearchParams(kept.answers);
    body.set("draft_version", draftVersion(f));
    body.set("version", (f.querySelector('input[name="version"]') || {}).value || "");
    var url = f.getAttribute("hx-post");
    fetch(url, {method: "POST", body: body, headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (response) {
        if (response.ok) { write(f, {pending: false, answers: kept.answers}); location.reload(); }
        else status(f, "Those answers could not be sent (" + response.status + "). They are still kept on this phone.");
      })
      .catch(function () { status(f, OFFLINE); });
  }

  function onLoad() {
    var f = form();
    if (!f) return;
    var kept = read(f);
    if (!kept || !kept.pending || kept.number !== f.dataset.number) return;
    if (f.dataset.editing === "yes" || kept.draftVersion === draftVersion(f)) {
      sendMine(f, kept);  // nothing newer on the server: send what this phone kept
    } else {
      offerMine(f);       // the server's copy moved on meanwhile: let the scorer choose
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", onLoad);
  else onLoad();
})();

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

// The card counter's − and + buttons: change the count beside them (0 to 4),
// then let the form check it as if it had been typed.
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("button.step[data-for]");
  if (!button) return;
  var box = document.getElementById(button.dataset.for);
  if (!box) return;
  var value = Math.max(0, Math.min(4, (parseInt(box.value, 10) || 0) + Number(button.dataset.step)));
  box.value = value ? String(value) : "";
  box.dispatchEvent(new Event("change", {bubbles: true}));
});
