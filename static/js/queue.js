// Each tap of the hand form is sent to the server (htmx); a request that gets no
// answer shows it at once, the form stays usable (its messages marked as
// waiting), and the answers — a preset or a call tapped meanwhile, and a Save —
// are sent again, in order, when the connection is back. The server keeps the
// hand in progress as well (every tap is stored there); the two copies are
// reconciled by the version of the hand in progress, and the phone says which
// answers it changed since the server last answered ("changed"), so a tap from
// a phone a version behind is added to the other phone's answers rather than
// thrown away (js/conflicts.js). Where a service worker is allowed (https,
// localhost) the page itself is kept too (static/sw.js, static/offline.js).
(function () {
  var G = window.Gleek, S = G.store;
  var OFFLINE = "No connection — your answers are kept on this phone and will be sent when it's back.";
  var OFFLINE_CALL = "No connection — the call is kept on this phone and will be sent when it's back; the next call can be tapped then.";
  var OFFLINE_SAVE = "No connection — your answers are kept on this phone, and the hand will be saved as soon as the connection is back.";
  var SAVE_AGAIN = "No connection — your answers are kept on this phone. You changed the hand after Save: tap Save again when it is done.";
  var retryTimer = null, inFlight = 0;  // requests of the hand form on their way
  var queue = G.queue = {offline: false, OFFLINE: OFFLINE};

  function status(f, text) {
    var line = document.getElementById("connection");
    if (line) { line.textContent = text || ""; line.hidden = !text; }
    f.classList.toggle("waiting", !!text);
    if (text && G.sections) G.sections.noteInView();   // the line must not cover the last "Not checked yet"
  }
  queue.status = status;
  function isSave(elt) { return !!(elt && elt.classList && elt.classList.contains("save")); }
  function action(f, elt) {
    return elt && elt.name && G.client(f).actions.indexOf(elt.name) >= 0 ? [elt.name, elt.value] : null;
  }
  // No connection now (the last request got no answer, or the browser says so).
  queue.isOffline = function () { return queue.offline || navigator.onLine === false; };

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
    var f = G.form(), name = event.target && event.target.name;
    if (!(f && f.contains(event.target) && name && !G.isControl(name, f))) return;
    if (event.type === "input" && !event.target.classList.contains("typed")) return;
    var kept = S.read(f) || {changed: [], actions: []};
    var changes = {changed: G.union(kept.changed || [], [name])};
    if (event.type === "input") changes.pending = true;
    if (disarms(event, kept)) { changes.saveTapped = false; changes.saveAgain = true; }
    kept = S.write(f, changes);
    if (changes.saveAgain) waiting(f, kept);
  }
  // A Save tapped offline saves the hand as it was when tapped: an answer the scorer
  // changes after it (a chip, a call, a preset) means the hand was not done, so that
  // Save is forgotten and the phone says to tap Save again (what the app does
  // itself — a retry, a preset's own chips — is not the scorer's tap: isTrusted).
  function disarms(event, kept) {
    return !!(kept && kept.saveTapped && event.isTrusted && queue.isOffline());
  }
  document.addEventListener("click", function (event) {
    var f = G.form(), button = event.target.closest && event.target.closest("button");
    if (!f || !button || !f.contains(button) || !(action(f, button) || button.dataset.padTap)) return;
    var kept = S.read(f);
    if (disarms(event, kept)) waiting(f, S.write(f, {saveTapped: false, saveAgain: true}));
  }, true);
  document.addEventListener("change", changed, true);
  document.addEventListener("input", changed, true);

  document.addEventListener("htmx:configRequest", function (event) {
    var f = G.form();
    if (!f || !f.contains(event.detail.elt)) return;
    var kept = S.read(f) || {};
    event.detail.parameters["changed"] = (kept.changed || []).join(",");
    // a request of the hand form, with what it did:
    event.detail.sent = kept.changed || [];
    event.detail.handForm = true;
    event.detail.taps = taps;                            // the taps this request carries
    event.detail.tapped = action(f, event.detail.elt);   // the preset or the call tapped, if any
    event.detail.saving = isSave(event.detail.elt);
    event.detail.queued = !!kept.queued;                 // it carries taps kept while there was no connection
    event.detail.using = event.detail.elt && event.detail.elt.name === "use";  // a conflict's "Use this phone's"
    var calls = event.detail.tapped && G.client(f).pads[event.detail.tapped[0]];
    if (calls) event.detail.seenCalls = event.detail.parameters[calls] || "";  // the calls it was tapped after
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var f = G.form();
    if (!f || !f.contains(event.detail.elt)) return;
    inFlight++;
    var kept = S.read(f) || {};
    var saving = isSave(event.detail.elt);
    S.write(f, {pending: true, saveTapped: saving || !!kept.saveTapped, saveAgain: !saving && !!kept.saveAgain});
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    // The request's own record of what was tapped (htmx says afterRequest on an
    // element still on the page when the button tapped was swapped away).
    var f = G.form(), xhr = event.detail.xhr, cfg = event.detail.requestConfig || {};
    if (!f || !cfg.handForm || cfg.answered || !xhr || !xhr.status) return;  // no answer at all: see lost()
    cfg.answered = true;
    queue.offline = false;
    inFlight = Math.max(0, inFlight - 1);
    clearInterval(retryTimer); retryTimer = null;
    status(f, "");
    f.classList.remove("calls-waiting");
    var sent = S.read(f) || {};  // this phone's copy as the request carried it (the form now shows the answer)
    var names = cfg.sent || sent.changed || [];  // the answers it said it changed
    if (xhr.getResponseHeader("HX-Redirect")) { S.forget(f); return; }  // saved (or cancelled)
    var whole = xhr.getResponseHeader("HX-Retarget") === "#hand-form-body";  // the whole form, as the server has it
    if (whole) {  // boxes kept as typed (hx-preserve) take the server's text, but what was typed since the request
      G.conflicts.takeServedBoxes(f, xhr.responseText, (sent.changed || []).filter(function (n) { return names.indexOf(n) < 0; }));
    }
    // What the phone kept while there was no connection, refused by the server now
    // (another phone saved or cancelled that hand, or changed it; an answer the
    // server does not take): the hand shown is the server's, and this phone's copy
    // is kept and offered, never overwritten by it (js/conflicts.js).
    if (cfg.queued && (xhr.status === 409 || xhr.status === 422) && whole && sent.answers &&
        !S.same(sent.answers, S.answers(f))) {
      G.conflicts.hold(f, sent);
      return;
    }
    // A Save the server answered without saving (refused: something is missing, or
    // another phone's answers) is forgotten: only a Save the scorer taps saves,
    // never a later tap by itself. (One sent again after the connection came back
    // and accepted saves as it is.)
    S.write(f, cfg.saving ? {saveTapped: false, saveAgain: false} : {saveAgain: false});
    var kept = S.read(f) || {};
    if (xhr.status === 409) {
      // Another phone moved the hand on: a call this phone tapped is kept (with the
      // calls it followed), for "Use this phone's answers" to send again.
      if (cfg.seenCalls !== undefined && !S.editing(f)) {
        kept.refused = {action: cfg.tapped[0], value: cfg.tapped[1], calls: G.client(f).pads[cfg.tapped[0]], seen: cfg.seenCalls};
        S.keep(f, kept);
      }
      // The server's own conflict box (#conflict, templates/_conflict.html) says what
      // happened and offers what can be done, this phone's answers in its buttons.
      if (document.getElementById("conflict")) S.write(f, {pending: false, changed: [], actions: []});
      else if (!S.editing(f)) G.conflicts.offerMine(f);
      return;
    }
    var actions = (kept.actions || []).slice();
    if (cfg.tapped && actions.length && actions[0].join() === cfg.tapped.join()) actions.shift();
    kept = S.write(f, {pending: false, actions: actions,
                       changed: (kept.changed || []).filter(function (n) { return names.indexOf(n) < 0; })});
    if (xhr.status >= 300) return;
    // every tap kept while away is in once nothing is left to send; a copy used is no longer held
    kept = S.write(f, {queued: !!kept.queued && (actions.length > 0 || !!kept.saveTapped),
                       held: cfg.using ? null : kept.held || null});
    // the server has the calls this phone took offline (js/pads.js), and drew its pads again
    if (kept.pads) { kept.pads = null; S.keep(f, kept); }
    if (G.sections) G.sections.checked(f);
    // a tap taken on the hand shown after a conflict: this phone goes on from it
    if (kept.refused) { kept.refused = null; S.keep(f, kept); }
    var bar = document.getElementById("use-mine");
    if (bar) bar.remove();
    if (kept.held) G.conflicts.offerMine(f, kept.held, {quiet: true});  // still there to choose, until chosen
    // what was tapped while away, once htmx has settled the answer in (new buttons work then)
    if (actions.length) setTimeout(function () { var g = G.form(); if (g) replay(g, actions[0]); }, 120);
    else if (kept.saveTapped && !cfg.saving) setTimeout(function () { var g = G.form(); if (g) save(g); }, 120);
  });

  function lost(event) {
    var f = G.form(), cfg = event.detail.requestConfig || {};
    if (!f || !cfg.handForm || cfg.answered) return;
    cfg.answered = true;
    queue.offline = true;
    inFlight = Math.max(0, inFlight - 1);
    var kept = S.read(f) || {};
    var actions = (kept.actions || []).slice();
    var tapped = cfg.tapped;
    // a pad's call is taken on the phone, from the states the server prepared (js/pads.js)
    if (tapped && G.pads && G.pads.take(f, tapped)) tapped = null;
    // a preset's answers are taken on the phone too, from what its button says (js/presets.js)
    if (tapped && G.presets && G.presets.take(f, tapped)) tapped = null;
    // an action is queued once (a replay that fails again is already in the queue)
    if (tapped && !actions.some(function (a) { return a.join() === tapped.join(); })) actions.push(tapped);
    kept = S.write(f, {pending: true, queued: true, actions: actions, saveTapped: cfg.saving || !!kept.saveTapped});
    // the refusal of an earlier Save ("Not saved yet …") is not this Save's answer
    if (cfg.saving) f.querySelectorAll("#hand-summary .flash.warn").forEach(function (old) { old.remove(); });
    // a preset tapped offline shows as waiting, until its answer comes
    if (tapped && tapped[0] === "preset") {
      var preset = f.querySelector('button[name="preset"][value="' + tapped[1] + '"]');
      if (preset) preset.classList.add("queued");
    }
    waiting(f, kept);
  }
  function waiting(f, kept) {
    if (!kept.queued) kept = S.write(f, {queued: true});  // what is kept now waits for the connection
    // a call queued (past what the pads can take on the phone) waits, so the next is tapped for the right player
    var calls = (kept.actions || []).some(function (a) { return a[0] !== "preset"; });
    f.classList.toggle("calls-waiting", calls);
    status(f, kept.saveTapped ? OFFLINE_SAVE : calls ? OFFLINE_CALL : kept.saveAgain ? SAVE_AGAIN : OFFLINE);
    if (G.sections) G.sections.unchecked(f);
    if (!retryTimer) retryTimer = setInterval(retry, 4000);
  }
  queue.waiting = waiting;
  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);
  window.addEventListener("online", retry);

  function retry() {
    var f = G.form(), kept = f && S.read(f);
    if (!kept || !kept.pending) { clearInterval(retryTimer); retryTimer = null; return; }
    if (inFlight) return;  // one at a time: its answer sends what is queued next
    if ((kept.actions || []).length) replay(f, kept.actions[0]);
    else htmx.trigger(f, "change");  // the answers as the page shows them now; a tapped Save follows
  }
  function replay(f, tapped) {
    var button = f.querySelector('button[name="' + tapped[0] + '"][value=\'' + tapped[1].replace(/'/g, "\\'") + '\']');
    if (button) { button.click(); return; }
    var kept = S.read(f);  // no longer offered (the answers moved on): drop it
    S.write(f, {actions: (kept.actions || []).slice(1)});
    htmx.trigger(f, "change");
  }
  function save(f) {
    var button = f.querySelector("button.save");
    if (button) button.click();
  }

  // A hand kept on this phone with no connection, its page closed before the
  // connection came back (the browser quit, the phone restarted): sent from
  // whichever page of the app is opened next with a connection. A Save tapped
  // offline is sent as a Save, once (the server knows a Save it already took by
  // its draft token and answers "already saved"; a stale one is refused, 409);
  // answers alone are kept as the server's hand in progress. What the server
  // refuses stays on the phone (held), offered on the hand form as after a
  // refused queue. True when it sends the hand of the form on this page.
  function sendKept() {
    if (document.documentElement.hasAttribute("data-offline-copy") || navigator.onLine === false) return false;
    var f = G.form(), here = f && !S.editing(f) ? "gleek:" + f.dataset.session + ":next" : null, mine = false;
    S.hands().forEach(function (entry) {
      var kept = entry.kept;
      if (!kept || !kept.answers || !kept.answers.length || !(kept.pending || kept.queued)) return;
      if (kept.saveTapped && kept.save) { mine = mine || entry.key === here; send(entry.key, kept, true); }
      // taps alone, kept while there was no connection (the form sends its own: onLoad; one
      // the server refuses is left as it is, offered when the form is opened)
      else if (kept.queued && kept.check && entry.key !== here) send(entry.key, kept, false);
    });
    return mine;
  }
  function send(key, kept, saving) {
    var body = new URLSearchParams(kept.answers);
    body.set("version", kept.version || "");
    body.set("draft", kept.draft || "");
    body.set("draft_version", kept.draftVersion || "");
    body.set("number", kept.number || "");
    body.set("changed", (kept.changed || []).join(","));
    var table = (saving ? kept.save : kept.check).replace(/\/hands(\/check)?$/, "");
    fetch(saving ? kept.save : kept.check, {method: "POST", body: body, headers: {"HX-Request": "true"},
                                             credentials: "same-origin"})
      .then(function (response) {
        var f = G.form(), onIt = f && !S.editing(f) && key === "gleek:" + f.dataset.session + ":next";
        if (saving && response.headers.get("HX-Redirect")) {   // saved (or found saved already)
          if (kept.held) S.keepAt(key, {held: kept.held, changed: [], actions: []});
          else S.keepAt(key, null);
          if (onIt || location.pathname === table) location.assign(response.headers.get("HX-Redirect"));
          else said(table, "Hand " + kept.number + ", saved on this phone with no connection, is now saved.", "Open the table");
        } else if (response.ok && !saving) {
          S.keepAt(key, Object.assign(kept, {pending: false, queued: false, changed: [], actions: []}));
        } else if (saving && (response.status === 409 || response.status === 422)) {
          var held = {number: kept.number, answers: kept.answers, draftVersion: kept.draftVersion,
                      changed: kept.changed || [], refused: kept.refused || null};
          S.keepAt(key, {held: held, changed: [], actions: [], check: kept.check, save: kept.save});
          if (onIt) location.reload();   // the form offers it (onLoad)
          else said(table + "/hands/new", "Hand " + kept.number + " was entered on this phone with no connection, " +
                    "and the server did not take it as it was: open it to choose what to keep.", "Open hand " + kept.number);
        }
        // anything else (the server down): still kept, sent the next time a page opens
      })
      .catch(function () { /* no connection after all: still kept */ });
  }
  // One line at the top of the page about a hand this phone sent, with the way to it.
  function said(href, text, label) {
    var main = document.querySelector("main");
    if (!main) return;
    var line = document.createElement("p");
    line.className = "flash warn kept-hand";
    line.setAttribute("role", "status");
    var link = document.createElement("a");
    link.href = href;
    link.textContent = label;
    line.append(text + " ", link);
    main.prepend(line);
  }

  function onLoad() {
    if (sendKept()) return;   // this form's hand, Save tapped offline: sent as a Save
    var f = G.form();
    if (!f) return;
    var kept = S.read(f);
    // With no connection, the page is this phone's copy (static/sw.js): the
    // hand as this phone last had it, its unsent answers waiting for the connection.
    if (document.documentElement.hasAttribute("data-offline-copy")) {
      if (!kept || !kept.answers || kept.number !== f.dataset.number) return;
      S.fill(f, kept);
      var based = f.querySelector('input[name="draft_version"]');
      if (based && kept.draftVersion) based.value = kept.draftVersion;
      if (G.pads) G.pads.restore(f);
      if (kept.pending) waiting(f, kept);
      return;
    }
    if (kept && kept.pending && kept.number === f.dataset.number) {
      if (S.editing(f)) { S.fill(f, kept); htmx.trigger(f, "change"); }  // an edit is kept on this phone only
      else if (kept.draftVersion === S.field(f, "draft_version")) G.conflicts.sendMine(f, kept);  // nothing newer on the server
      else G.conflicts.offerMine(f);  // the server's copy moved on meanwhile: let the scorer choose
    } else if (kept && kept.held) {
      G.conflicts.offerMine(f, kept.held);  // a copy the server refused, still to be chosen
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", onLoad);
  else onLoad();
})();
