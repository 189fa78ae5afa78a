// Small progressive enhancements for the hand form (the form works without them).
// The handlers that change other inputs listen in the capture phase, so they
// run before htmx (listening on the form) reads the form and sends it.
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

// New session: the "who deals first" and "who keeps the score" chips take the names as they are typed.
document.addEventListener("input", function (event) {
  var field = event.target;
  var match = field.name && field.name.match(/^player_([012])$/);
  if (!match) return;
  document.querySelectorAll('.dealer-chips input[value="' + match[1] + '"] + span').forEach(function (chip) {
    chip.textContent = field.value.trim() || "Seat " + (Number(match[1]) + 1);
  });
});

// Links and buttons that would throw something away ask first (Cancel on a
// half-filled edit, Delete hand).
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a[data-confirm], button[data-confirm]");
  if (link && !window.confirm(link.dataset.confirm)) event.preventDefault();
});

// Chips of which at most one may be chosen, as the page says (data-one-of on their
// group: a gleek and a mournival of one rank): choosing one unchooses the others.
document.addEventListener("change", function (event) {
  var box = event.target, group = box.type === "checkbox" && box.checked && box.closest("[data-one-of]");
  if (!group) return;
  group.querySelectorAll('input[type="checkbox"]').forEach(function (other) {
    if (other !== box) other.checked = false;
  });
}, true);  // capture: before htmx (listening on the form) sends it

// Counts out of a total (tricks): once two seats are chosen the third fills
// itself in at once, as the server does (so it also does offline). The total
// is the question's own (data-counts-total); "<field>_auto" remembers which
// count was the form's guess, so choosing another seat refills it.
document.addEventListener("change", function (event) {
  var chip = event.target, match = chip.type === "radio" && chip.name.match(/^(.+)_([012])$/);
  var auto = match && document.querySelector('input[name="' + match[1] + '_auto"][data-counts-total]');
  if (!auto) return;
  var total = Number(auto.dataset.countsTotal), guess = auto.value.split(":"), counts = [], open = [];
  for (var seat = 0; seat < 3; seat++) {
    var on = document.querySelector('input[name="' + match[1] + "_" + seat + '"]:checked');
    var mine = on && !(String(seat) === guess[0] && on.value === guess[1] && String(seat) !== match[2]);
    counts.push(mine ? Number(on.value) : null);
    if (!mine) open.push(seat);
  }
  if (open.length !== 1) return;
  var rest = total - counts.reduce(function (a, b) { return a + (b || 0); }, 0);
  var fill = document.querySelector('input[name="' + match[1] + "_" + open[0] + '"][value="' + rest + '"]');
  if (rest < 0 || !fill) return;  // too many: the server says so
  fill.checked = true;
  auto.value = open[0] + ":" + rest;
}, true);  // capture: before htmx (listening on the form) sends it

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
// a preset or a call tapped meanwhile, and a Save — are sent again when the
// connection is back. The server keeps the hand in progress as well (every
// tap is stored there); the two copies are reconciled by the version of the
// hand in progress, and the phone says which answers it changed since the
// server last answered ("changed"), so a tap from a phone a version behind is
// added to the other phone's answers rather than thrown away.
// Where a service worker is allowed (https, localhost) the page itself is kept too (static/sw.js).
(function () {
  var OFFLINE = "No connection — your answers are kept on this phone and will be sent when it's back.";
  var OFFLINE_CALL = "No connection — the call is kept on this phone and will be sent when it's back; the next call can be tapped then.";
  var OFFLINE_SAVE = "No connection — your answers are kept on this phone, and the hand will be saved as soon as the connection is back.";
  var CONTROL = /^(version|draft_version|draft|preset|changed|bid|ruff_call|sig_.*)$/;
  var ACTION = /^(preset|bid|ruff_call)$/;
  var CALLS = {bid: "bids", ruff_call: "ruff_calls"};  // a pad's tap, and the list of calls it adds to
  var retryTimer = null, inFlight = 0;  // requests of the hand form on their way

  function form() { return document.getElementById("hand-form"); }
  function editing(f) { return f.dataset.editing === "yes"; }
  function storageKey(f) {
    return "gleek:" + f.dataset.session + ":" + (editing(f) ? "hand-" + f.dataset.number : "next");
  }
  function answers(f) {
    var out = [];
    new FormData(f).forEach(function (value, name) { if (!CONTROL.test(name)) out.push([name, value]); });
    return out;
  }
  function field(f, name) { var input = f.querySelector('input[name="' + name + '"]'); return input ? input.value : ""; }
  function read(f) {
    try { return JSON.parse(localStorage.getItem(storageKey(f)) || "null"); } catch (e) { return null; }
  }
  function write(f, changes) {
    var kept = read(f) || {changed: [], actions: []};
    kept.number = f.dataset.number;
    kept.answers = answers(f);
    kept.draftVersion = field(f, "draft_version");
    Object.keys(changes || {}).forEach(function (k) { kept[k] = changes[k]; });
    try { localStorage.setItem(storageKey(f), JSON.stringify(kept)); } catch (e) { /* full: the server copy remains */ }
    return kept;
  }
  function keep(f, kept) { try { localStorage.setItem(storageKey(f), JSON.stringify(kept)); } catch (e) {} }
  function forget(f) { try { localStorage.removeItem(storageKey(f)); } catch (e) {} }
  function status(f, text) {
    var line = document.getElementById("connection");
    if (line) { line.textContent = text || ""; line.hidden = !text; }
    f.classList.toggle("waiting", !!text);
  }
  function isSave(elt) { return !!(elt && elt.classList && elt.classList.contains("save")); }
  function action(elt) { return elt && elt.name && ACTION.test(elt.name) ? [elt.name, elt.value] : null; }
  function union(a, b) { return a.concat(b.filter(function (x) { return a.indexOf(x) < 0; })); }

  // A section tapped again while an answer was on its way keeps what was tapped:
  // that answer's fields for it (drawn from the earlier tap) are not swapped in;
  // the next request, already queued, answers for the section as it is now.
  var taps = 0, touched = {}, answering = null;
  function touch(event) {
    var section = event.target && event.target.closest && event.target.closest("section.step");
    taps++;
    if (section) touched[section.id.replace(/^step-/, "")] = taps;
  }
  document.addEventListener("change", touch, true);
  document.addEventListener("input", touch, true);
  document.addEventListener("htmx:beforeSwap", function (event) { answering = event.detail.requestConfig || null; });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target, match = target && /^fields-(.+)$/.exec(target.id || "");
    if (match && answering && answering.taps !== undefined && (touched[match[1]] || 0) > answering.taps) {
      event.detail.shouldSwap = false;
    }
  });

  // which answers this phone changed since the server last answered; a box
  // being typed in (a note, an amount) is kept on this phone at each keystroke,
  // as not sent yet, so a reload or a locked screen before it is sent loses nothing
  function changed(event) {
    var f = form(), name = event.target && event.target.name;
    if (!(f && f.contains(event.target) && name && !CONTROL.test(name))) return;
    if (event.type === "input" && !event.target.classList.contains("typed")) return;
    var kept = read(f) || {changed: [], actions: []};
    var changes = {changed: union(kept.changed || [], [name])};
    if (event.type === "input") changes.pending = true;
    write(f, changes);
  }
  document.addEventListener("change", changed, true);
  document.addEventListener("input", changed, true);
  document.addEventListener("htmx:configRequest", function (event) {
    var f = form();
    if (!f || !f.contains(event.detail.elt)) return;
    var kept = read(f) || {};
    event.detail.parameters["changed"] = (kept.changed || []).join(",");
    event.detail.sent = kept.changed || [];
    event.detail.handForm = true;
    event.detail.taps = taps;                     // the taps this request carries                 // a request of the hand form, with what it did:
    event.detail.tapped = action(event.detail.elt);  // the preset or the call tapped, if any
    event.detail.saving = isSave(event.detail.elt);
    var calls = event.detail.tapped && CALLS[event.detail.tapped[0]];
    if (calls) event.detail.seenCalls = event.detail.parameters[calls] || "";  // the calls it was tapped after
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var f = form();
    if (!f || !f.contains(event.detail.elt)) return;
    inFlight++;
    var kept = read(f) || {};
    write(f, {pending: true, saveTapped: isSave(event.detail.elt) || !!kept.saveTapped});
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    // The request's own record of what was tapped (htmx says afterRequest on an
    // element still on the page when the button tapped was swapped away).
    var f = form(), xhr = event.detail.xhr, cfg = event.detail.requestConfig || {};
    if (!f || !cfg.handForm || cfg.answered || !xhr || !xhr.status) return;  // no answer at all: see lost()
    cfg.answered = true;
    inFlight = Math.max(0, inFlight - 1);
    clearInterval(retryTimer); retryTimer = null;
    status(f, "");
    f.classList.remove("calls-waiting");
    if (xhr.getResponseHeader("HX-Redirect")) { forget(f); return; }  // saved (or cancelled)
    var kept = read(f) || {};
    var sent = cfg.sent || kept.changed || [];
    if (xhr.getResponseHeader("HX-Retarget") === "#hand-form-body") {  // the whole form, as the server has it
      takeServedBoxes(f, xhr.responseText, (kept.changed || []).filter(function (n) { return sent.indexOf(n) < 0; }));
    }
    if (xhr.status === 409) {
      // Another phone moved the hand on: a call this phone tapped is kept (with the
      // calls it followed), for "Use this phone's answers" to send again.
      if (cfg.seenCalls !== undefined && !editing(f)) {
        kept.refused = {action: cfg.tapped[0], value: cfg.tapped[1], calls: CALLS[cfg.tapped[0]], seen: cfg.seenCalls};
        keep(f, kept);
      }
      // The server's own conflict box (#conflict, templates/_conflict.html) says what
      // happened and offers what can be done, this phone's answers in its buttons.
      if (document.getElementById("conflict")) write(f, {pending: false, changed: [], actions: []});
      else if (!editing(f)) offerMine(f);
      return;
    }
    var queue = (kept.actions || []).slice();
    if (cfg.tapped && queue.length && queue[0].join() === cfg.tapped.join()) queue.shift();
    kept = write(f, {pending: false, actions: queue,
                     changed: (kept.changed || []).filter(function (n) { return sent.indexOf(n) < 0; })});
    if (xhr.status >= 300) return;
    // a tap taken on the hand shown after a conflict: this phone goes on from it
    if (kept.refused) { kept.refused = null; keep(f, kept); }
    var bar = document.getElementById("use-mine");
    if (bar) bar.remove();
    // what was tapped while away, once htmx has settled the answer in (new buttons work then)
    if (queue.length) setTimeout(function () { var g = form(); if (g) replay(g, queue[0]); }, 120);
    else if (kept.saveTapped && !cfg.saving) setTimeout(function () { var g = form(); if (g) save(g); }, 120);
  });
  // A box being typed in is kept as it is when the form is redrawn (hx-preserve);
  // when the server answers with the whole form (another phone's answers merged
  // in, or the hand as it is now), each such box takes the server's text unless
  // this phone typed in it since its request went.
  function takeServedBoxes(f, html, typedSince) {
    var served = new DOMParser().parseFromString(html, "text/html");
    served.querySelectorAll("input[hx-preserve][name]").forEach(function (box) {
      var mine = f.querySelector('input[name="' + box.name + '"]');
      if (mine && typedSince.indexOf(box.name) < 0 && mine.value !== box.value) mine.value = box.value;
    });
  }
  function lost(event) {
    var f = form(), cfg = event.detail.requestConfig || {};
    if (!f || !cfg.handForm || cfg.answered) return;
    cfg.answered = true;
    inFlight = Math.max(0, inFlight - 1);
    var kept = read(f) || {};
    var queue = (kept.actions || []).slice();
    var tapped = cfg.tapped;
    // an action is queued once (a replay that fails again is already in the queue)
    if (tapped && !queue.some(function (a) { return a.join() === tapped.join(); })) queue.push(tapped);
    kept = write(f, {pending: true, actions: queue, saveTapped: cfg.saving || !!kept.saveTapped});
    // A call moves the pad on (whose turn, what they may say) only once the server
    // has it: the pads wait, so each call is tapped for the right player, in order.
    // a preset tapped offline shows as waiting, until its answer comes
    if (tapped && tapped[0] === "preset") {
      var preset = f.querySelector('button[name="preset"][value="' + tapped[1] + '"]');
      if (preset) preset.classList.add("queued");
    }
    var calls = queue.some(function (a) { return a[0] !== "preset"; });
    f.classList.toggle("calls-waiting", calls);
    status(f, kept.saveTapped ? OFFLINE_SAVE : calls ? OFFLINE_CALL : OFFLINE);
    if (!retryTimer) retryTimer = setInterval(retry, 4000);
  }
  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);
  window.addEventListener("online", retry);

  function retry() {
    var f = form(), kept = f && read(f);
    if (!kept || !kept.pending) { clearInterval(retryTimer); retryTimer = null; return; }
    if (inFlight) return;  // one at a time: its answer sends what is queued next
    if ((kept.actions || []).length) replay(f, kept.actions[0]);
    else htmx.trigger(f, "change");  // the answers as the page shows them now; a tapped Save follows
  }
  function replay(f, tapped) {
    var button = f.querySelector('button[name="' + tapped[0] + '"][value=\'' + tapped[1].replace(/'/g, "\\'") + '\']');
    if (button) { button.click(); return; }
    var kept = read(f);  // no longer offered (the answers moved on): drop it
    write(f, {actions: (kept.actions || []).slice(1)});
    htmx.trigger(f, "change");
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
    // one bar: the server's word on what happened ("Another phone changed this hand …"), then the choice
    var said = summary && summary.querySelector(".flash.warn[role=alert]");
    if (said) { bar.prepend(said.textContent.replace(/ This phone's answers are kept.*$/, "") + " "); said.remove(); }
    (summary || f).prepend(bar);
    bar.scrollIntoView({block: "center"});
  }
  // The answers this phone changed go onto the hand as the server has it now
  // (based on the version this phone last saw); with nothing recorded as
  // changed, this phone's whole hand, as the scorer chose.
  // A call refused because the other phone had moved that pad on is sent with
  // the calls it followed: this phone's calls for that pad, the other phone's
  // answers everywhere else.
  function sendMine(f, kept) {
    var body = new URLSearchParams(kept.answers);
    var changed = (kept.changed || []).slice();
    if (kept.refused) {
      body.set(kept.refused.calls, kept.refused.seen);
      body.set(kept.refused.action, kept.refused.value);
      changed = union(changed, [kept.refused.calls]);
    }
    var merge = changed.length > 0;
    body.set("draft_version", merge ? kept.draftVersion : field(f, "draft_version"));
    body.set("changed", changed.join(","));
    body.set("version", field(f, "version"));
    fetch(f.getAttribute("hx-post"), {method: "POST", body: body, headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (response) {
        if (response.ok) { write(f, {pending: false, changed: [], actions: [], refused: null}); location.reload(); }
        else if (response.status === 409 || response.status === 422) response.text().then(function (html) { served(f, html); });
        else status(f, "Those answers could not be sent (" + response.status + "). They are still kept on this phone.");
      })
      .catch(function () { status(f, OFFLINE); });
  }
  // The server's answer to answers sent again: the hand as it is now, with what
  // happened (a conflict box with this phone's answers in its buttons, or why
  // they were not kept), in place of the form shown.
  function served(f, html) {
    var body = document.getElementById("hand-form-body");
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("hand-form-body");
    var bar = document.getElementById("use-mine");
    if (bar) bar.remove();
    if (!body || !fresh) return;
    body.replaceWith(fresh);
    htmx.process(fresh);
    if (document.getElementById("conflict")) write(f, {pending: false, changed: [], actions: [], refused: null});
    fresh.scrollIntoView({block: "start"});
  }
  // An edit is kept on this phone only: put the kept answers back in the form.
  function applyMine(f, kept) {
    fill(f, kept);
    htmx.trigger(f, "change");
  }
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

  function onLoad() {
    var f = form();
    if (!f) return;
    var kept = read(f);
    // With no connection, the page is this phone's copy (static/sw.js): the
    // hand as this phone last had it, its unsent answers waiting for the connection.
    if (document.documentElement.hasAttribute("data-offline-copy")) {
      if (!kept || !kept.answers || kept.number !== f.dataset.number) return;
      fill(f, kept);
      var based = f.querySelector('input[name="draft_version"]');
      if (based && kept.draftVersion) based.value = kept.draftVersion;
      if (kept.pending) {
        status(f, kept.saveTapped ? OFFLINE_SAVE : OFFLINE);
        if (!retryTimer) retryTimer = setInterval(retry, 4000);
      }
      return;
    }
    if (!kept || !kept.pending || kept.number !== f.dataset.number) return;
    if (editing(f)) applyMine(f, kept);
    else if (kept.draftVersion === field(f, "draft_version")) sendMine(f, kept);  // nothing newer on the server
    else offerMine(f);  // the server's copy moved on meanwhile: let the scorer choose
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
