// Another phone's answers: after a conflict, or a reload with answers this phone
// never got to send, offer to send this phone's answers (never drop them
// silently); the server's own conflict box (templates/_conflict.html) says what
// happened where it can.
(function () {
  var G = window.Gleek, S = G.store;

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

  // ``held``: a copy the server refused (kept.held), offered until the scorer
  // chooses; else the hand this phone kept (kept). ``opts.quiet``: not brought into view.
  function offerMine(f, held, opts) {
    var kept = held || S.read(f);
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
    drop.addEventListener("click", function () {
      if (held) S.write(f, {held: null}); else S.forget(f);
      bar.remove();
    });
    bar.append(use, " ", drop);
    var summary = document.getElementById("hand-summary");
    // one bar: the server's word on what happened ("Another phone changed this hand …"), then the choice
    var said = summary && summary.querySelector(".flash.warn[role=alert]");
    if (said) { bar.prepend(said.textContent.replace(/ This phone's answers are kept.*$/, "") + " "); said.remove(); }
    (summary || f).prepend(bar);
    if (!(opts && opts.quiet)) bar.scrollIntoView({block: "center"});
  }
  // What this phone kept while there was no connection, refused by the server when
  // sent (``copy``: the phone's entry as the request carried it): kept as this
  // phone's copy (kept.held), whatever the hand shown becomes, and offered —
  // beside the server's own conflict box, which offers it already, only after a reload.
  function hold(f, copy) {
    var held = {number: copy.number, answers: copy.answers, draftVersion: copy.draftVersion,
                changed: copy.changed || [], refused: copy.refused || null};
    S.write(f, {held: held, pending: false, queued: false, saveTapped: false, saveAgain: false,
                changed: [], actions: [], refused: null, pads: null});
    if (!document.getElementById("conflict")) offerMine(f, held);
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
      changed = G.union(changed, [kept.refused.calls]);
    }
    var merge = changed.length > 0;
    body.set("draft_version", merge ? kept.draftVersion : S.field(f, "draft_version"));
    body.set("changed", changed.join(","));
    body.set("version", S.field(f, "version"));
    if (!S.editing(f) && kept.number) body.set("number", kept.number);  // the hand they are for (the server says if it moved on)
    fetch(f.getAttribute("hx-post"), {method: "POST", body: body, headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (response) {
        if (response.ok) { S.write(f, {pending: false, changed: [], actions: [], refused: null, held: null}); location.reload(); }
        else if (response.status === 409 || response.status === 422) response.text().then(function (html) { served(f, html, kept); });
        else G.queue.status(f, "Those answers could not be sent (" + response.status + "). They are still kept on this phone.");
      })
      .catch(function () { G.queue.status(f, G.queue.OFFLINE); });
  }
  // The server's answer to answers sent again: the hand as it is now, with what
  // happened (a conflict box with this phone's answers in its buttons, or why
  // they were not kept), in place of the form shown.
  function served(f, html, copy) {
    var body = document.getElementById("hand-form-body");
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("hand-form-body");
    var bar = document.getElementById("use-mine");
    if (bar) bar.remove();
    if (!body || !fresh) return;
    body.replaceWith(fresh);
    htmx.process(fresh);
    fresh.scrollIntoView({block: "start"});
    // the answers sent are not the hand shown: they stay this phone's copy, offered
    if (copy && copy.answers && !S.same(copy.answers, S.answers(f))) hold(f, copy);
    else if (document.getElementById("conflict")) S.write(f, {pending: false, changed: [], actions: [], refused: null});
  }
  G.conflicts = {takeServedBoxes: takeServedBoxes, offerMine: offerMine, sendMine: sendMine, served: served, hold: hold};
})();
