// For a keyboard and a screen reader (the markup does the rest: chips are
// radios in groups named by their question, focus is drawn by app.css):
// - htmx swaps parts of the hand form after each tap; the element that had the
//   focus is found again in what was swapped in (same name and value, or same
//   id) and focused, so the keyboard goes on from where it was;
// - a section's payments, when they change, are said in the polite live
//   region #announce ("Stock: Ann −6, Ben +12, Cat −6").
(function () {
  var focused = null;

  function describe(el) {
    if (!el || el === document.body) return null;
    return {id: el.id || "", name: el.getAttribute("name") || "", value: el.getAttribute("value") || "",
            tag: el.tagName};
  }
  function find(d) {
    var el = null;
    if (d.name) {
      var all = document.querySelectorAll(d.tag.toLowerCase() + '[name="' + CSS.escape(d.name) + '"]');
      for (var i = 0; i < all.length && !el; i++) if ((all[i].getAttribute("value") || "") === d.value) el = all[i];
    }
    return el || (d.id ? document.getElementById(d.id) : null);
  }
  function remember() {
    var el = document.activeElement;
    if (el && el !== document.body && el.closest && el.closest("#hand-form")) focused = describe(el);
  }
  function restore() {
    if (!focused) return;
    var el = document.activeElement;
    if (el && el !== document.body && el.isConnected) return;   // the focus is still where it was
    var again = find(focused);
    if (again) again.focus({preventScroll: true});
  }
  document.addEventListener("htmx:beforeSwap", remember);
  document.addEventListener("htmx:oobBeforeSwap", remember);
  document.addEventListener("focusin", function (event) {
    if (event.target.closest && event.target.closest("#hand-form")) focused = describe(event.target);
  });
  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);

  // A section's payments said once they change.
  function payments(status) {
    var section = status.closest("section.step"), title = section && section.querySelector("h2");
    var parts = window.Gleek.payments(status);
    if (!parts.length) return "";
    var name = title ? (title.firstChild && title.firstChild.nodeType === 3 ? title.firstChild.textContent : title.textContent) : "";
    return (name.trim() ? name.trim() + ": " : "") + parts.join(", ");
  }
  var said = {};
  function seen(announce) {
    var changed = [];
    document.querySelectorAll("#hand-form .step-status").forEach(function (s) {
      var text = payments(s);
      if (announce && text && text !== said[s.id]) changed.push(text);
      said[s.id] = text;
    });
    var region = document.getElementById("announce");
    if (changed.length && region) region.textContent = changed.join("; ");
  }
  document.addEventListener("htmx:afterSettle", function () { seen(true); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { seen(false); });
  else seen(false);
})();
