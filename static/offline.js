// Offline from a cold start (the worker is static/sw.js): register it where the
// browser allows one, say so in one line where it does not (a LAN address over
// plain http), mark a page shown from this phone's copy, and keep that copy as
// the page is shown (sent to the worker when the phone leaves the page, and a
// moment after each change htmx makes), so a reload with no connection shows
// the table as it was last seen. The hand in progress itself is this phone's
// own copy (localStorage, static/js/store.js), put back into a kept page there.
(function () {
  var root = document.documentElement;

  // A change only the server can make (undo, delete, go back, …: a plain form, not the
  // hand form, whose taps are queued) is not sent with no connection: the browser
  // would show its own error page, or nothing. The page says so, and nothing changes.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form || form.id === "hand-form" || form.hasAttribute("hx-post") ||
        (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (!root.hasAttribute("data-offline-copy") && navigator.onLine !== false) return;
    event.preventDefault();
    var said = form.querySelector(".no-connection") || document.createElement("p");
    said.className = "flash warn no-connection";
    said.setAttribute("role", "alert");
    said.textContent = "No connection: nothing was changed. Try again once the connection is back.";
    form.appendChild(said);
  });

  // "Next hand" says "Continue hand N" where this phone keeps a hand in progress for
  // the table (js/store.js) that the page shown does not know of: a page from this
  // phone's copy (below), or one that Back brings back (from the browser's memory or
  // cache) after a hand was tapped (and saved) with no connection — its "Next hand"
  // opened that same hand, and a tap there meant for the next one changed it and
  // called its Save off.
  function continueKeptHand() {
    var next = document.querySelector('.thumb-bar a[href$="/hands/new"]'), match = /^\/s\/([^/]+)$/.exec(location.pathname);
    if (!next || !match) return;
    try {
      var hand = JSON.parse(localStorage.getItem("gleek:" + match[1] + ":next") || "null");
      if (hand && hand.answers && hand.answers.length) next.textContent = "Continue hand " + hand.number;
    } catch (e) { /* nothing kept */ }
  }
  window.addEventListener("pageshow", function (event) {
    var entry = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    if (event.persisted || (entry && entry.type === "back_forward")) continueKeptHand();
  });

  if (!window.isSecureContext || !("serviceWorker" in navigator)) {
    var note = document.getElementById("insecure-note");
    if (note) note.hidden = false;
    return;
  }
  // once the page has loaded: the worker then keeps the files from the browser's cache, not fetched twice
  function register() {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () { /* still works online */ });
  }
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
  // the first visit: this page was fetched before the worker took over, so it asks to keep it
  if (!navigator.serviceWorker.controller) {
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      var worker = navigator.serviceWorker.controller;
      if (worker) worker.postMessage({type: "keep", url: location.href.split("#")[0]});
    }, {once: true});
  }

  // A page shown from this phone's copy says so, until the server answers again.
  if (root.hasAttribute("data-offline-copy")) {
    var saved = Number(root.getAttribute("data-offline-copy"));
    var when = saved ? new Date(saved).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"}) : "";
    var line = document.createElement("p");
    line.className = "flash warn offline-copy";
    line.id = "offline-copy";
    line.setAttribute("role", "status");
    line.textContent = "No connection — this is the page as this phone last saw it" + (when ? " (" + when + ")" : "") +
      (document.getElementById("hand-form") ? ". Your taps are kept on this phone and sent when the connection is back." : ".");
    var main = document.querySelector("main");
    if (main) main.prepend(line);
    var answered = function (event) {
      var xhr = event.detail && event.detail.xhr;
      if (!xhr || !xhr.status) return;
      root.removeAttribute("data-offline-copy");
      line.remove();
      document.removeEventListener("htmx:afterRequest", answered);
    };
    document.addEventListener("htmx:afterRequest", answered);
    continueKeptHand();   // the table as last seen, with the hand this phone has in progress since
    // a page that is not the hand form is simply fetched again when the connection is back
    // (asked every 5 s too: the "online" event does not always come)
    if (!document.getElementById("hand-form")) {
      var back = function () {
        fetch("/healthz", {cache: "no-store"}).then(function (r) { if (r.ok) location.reload(); }).catch(function () {});
      };
      window.addEventListener("online", back);
      setInterval(back, 5000);
    }
  }

  // The next hand, drawn by the server now, kept by the worker as the page "Next
  // hand" opens: with no connection that link then opens the next hand (its number,
  // its dealer, its call pads), never a copy of the hand just saved. Asked again
  // when the table changes (a hand saved on another phone moves it on).
  function keepNextHand() {
    var worker = navigator.serviceWorker.controller;
    var next = document.querySelector('.thumb-bar a[href$="/hands/new"]');
    if (!worker || !next || root.hasAttribute("data-offline-copy")) return;
    try { worker.postMessage({type: "keep", url: next.href.split("#")[0]}); } catch (e) {}
  }
  if (document.readyState === "complete") keepNextHand();
  else window.addEventListener("load", keepNextHand);
  navigator.serviceWorker.addEventListener("controllerchange", keepNextHand);

  // The page as shown: what was typed and ticked written into the copy, what
  // the scripts add (this line, the bar after a conflict) and what htmx shows
  // only while a request is on its way (the "saving…" badge, a Save disabled
  // until its answer) left out: a copy shown offline has no request on its way.
  function snapshot() {
    var copy = root.cloneNode(true);
    var live = root.querySelectorAll("input, textarea"), copied = copy.querySelectorAll("input, textarea");
    for (var i = 0; i < live.length && i < copied.length; i++) {
      var from = live[i], to = copied[i];
      if (from.type === "checkbox" || from.type === "radio") to.toggleAttribute("checked", from.checked);
      else if (from.tagName === "TEXTAREA") to.textContent = from.value;
      else if (from.type !== "file" && from.type !== "password") to.setAttribute("value", from.value);
    }
    copy.querySelectorAll("#offline-copy, #use-mine").forEach(function (el) { el.remove(); });
    var connection = copy.querySelector("#connection");
    if (connection) { connection.hidden = true; connection.textContent = ""; }
    copy.removeAttribute("data-offline-copy");
    copy.querySelectorAll(".htmx-request, .htmx-settling, .htmx-swapping, .htmx-added").forEach(function (el) {
      el.classList.remove("htmx-request", "htmx-settling", "htmx-swapping", "htmx-added");
    });
    copy.querySelectorAll('[hx-disabled-elt="this"][disabled]').forEach(function (el) { el.removeAttribute("disabled"); });
    return "<!doctype html>\n" + copy.outerHTML;
  }
  // A hand form whose hand was just saved (or cancelled) is not kept as it is left:
  // the page that opens the next hand is the server's (keepNextHand).
  var done = false;
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && xhr.status && xhr.getResponseHeader("HX-Redirect") && document.getElementById("hand-form")) done = true;
  });
  function keep() {
    var worker = navigator.serviceWorker.controller;
    if (!worker || done || document.querySelector("form[method=post] input[type=password]")) return;
    try { worker.postMessage({type: "snapshot", url: location.href.split("#")[0], html: snapshot()}); } catch (e) {}
  }
  var timer = null, nextTimer = null;
  function soon() { clearTimeout(timer); timer = setTimeout(keep, 800); }
  document.addEventListener("htmx:afterSettle", soon);
  document.addEventListener("htmx:afterSettle", function () { clearTimeout(nextTimer); nextTimer = setTimeout(keepNextHand, 800); });
  document.addEventListener("change", soon);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") keep(); });
  window.addEventListener("pagehide", keep);
})();
