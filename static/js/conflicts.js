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

  function offerMine(f) {
    var kept = S.read(f);
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
    drop.addEventListener("click", function () { S.forget(f); bar.remove(); });
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
      changed = G.union(changed, [kept.refused.calls]);
    }
    var merge = changed.length > 0;
    body.set("draft_version", merge ? kept.draftVersion : S.field(f, "draft_version"));
    body.set("changed", changed.join(","));
    body.set("version", S.field(f, "version"));
    fetch(f.getAttribute("hx-post"), {method: "POST", body: body, headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (response) {
        if (response.ok) { S.write(f, {pending: false, changed: [], actions: [], refused: null}); location.reload(); }
        else if (response.status === 409 || response.status === 422) response.text().then(function (html) { served(f, html); });
        else G.queue.status(f, "Those answers could not be sent (" + response.status + "). They are still kept on this phone.");
      })
      .catch(function () { G.queue.status(f, G.queue.OFFLINE); });
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
    if (document.getElementById("conflict")) S.write(f, {pending: false, changed: [], actions: [], refused: null});
    fresh.scrollIntoView({block: "start"});
  }
  G.conflicts = {takeServedBoxes: takeServedBoxes, offerMine: offerMine, sendMine: sendMine, served: served};
})();
