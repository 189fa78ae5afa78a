// The form follows the hand: a section the server says is answered (its status
// "done") folds to one line (what was answered, and its payments) once a tap is
// made (never as the page opens), the next section to answer is brought into view, and
// a tap on a folded line opens it again (it stays open until a tap elsewhere).
// A folded section's one-tap answers (presets) stay in view. What the phone took without the
// connection is marked as not checked yet until the server has answered.
(function () {
  var G = window.Gleek;
  var UNCHECKED = "Not checked yet: checked when the connection is back.";
  var opened = null, lastTapped = null, lastSeveral = false;
  // a tap (a chip, a button) since the last answer: only then is the next section
  // brought into view, so an answer to typing (checked while typing) never scrolls
  // the page under the scorer's thumb
  var tappedSince = false;

  // Where the thumb last tapped, and what was under it: a section folding and the next
  // brought into view move other chips to that point within half a second of a tap, so
  // the second tap of a double tap would choose an answer nobody aimed at (Tiddy's Ann,
  // then the stock's 14 that scrolled there). A tap at that point, within STILL_MS of
  // such a move, on a control that was not under the thumb before it, is not taken.
  // A tap anywhere else, or after the scorer scrolled the page, is aimed afresh and taken,
  // so the page still follows the hand. A move is the tapped section moving on the
  // screen; a pad offering its next calls in the same place is not one (calls are
  // spoken seconds apart, and a tap there is aimed at what is shown).
  var STILL_MS = 500, REACH = 24;   // px either way: a thumb tapping "the same spot" again
  var thumb = null;                 // {x, y, what, section, top, moved, at}: the tapped section and its top then;
                                    // when the page moved under the thumb, and its scroll then

  function sections(f) { return Array.prototype.slice.call(f.querySelectorAll("section.step")); }
  function done(section) { return !!section.querySelector(":scope > .step-status.done"); }
  function titled(section) { return !!section.querySelector(":scope > h2"); }

  // One line for a folded section: the answers chosen there, then its payments.
  function summary(section) {
    var parts = [];
    var result = section.querySelector(".call-pad .calls-result");
    section.querySelectorAll(".step-fields input:checked").forEach(function (input) {
      if (input.closest("[hidden]") || input.value === "other") return;
      var label = input.closest("label"), name = label && (label.querySelector(".name") || label.querySelector("span"));
      var text = name ? name.textContent.trim() : input.value;
      // a player chosen says for what ("Tib Ann"), from the question's label
      var group = input.closest(".chips"), asked = group && group.previousElementSibling;
      if (group && group.classList.contains("seats") && asked && asked.classList.contains("label")) {
        text = asked.textContent.split(/ —|:| \(/)[0].trim() + " " + text;
      }
      if (text && parts.indexOf(text) < 0) parts.push(text);
    });
    section.querySelectorAll(".step-fields input.typed").forEach(function (box) {
      if (box.value.trim() && !box.closest("[hidden]") && !box.closest("details:not([open])")) parts.push(box.value.trim());
    });
    if (result) parts = [result.textContent.trim().replace(/\.$/, "")].concat(parts.slice(0, 2));
    var status = section.querySelector(":scope > .step-status"), paid = status ? G.payments(status) : [];
    var line = parts.join(" · ");
    if (paid.length) line += (line ? " — " : "") + paid.join(", ");
    return line || "Answered";
  }

  function fold(section, on) {
    var line = section.querySelector(":scope > .fold-line");
    if (on && !line) {
      line = document.createElement("button");
      line.type = "button";
      line.className = "fold-line";
      section.querySelector(":scope > h2").after(line);
    }
    if (line) {
      line.hidden = !on;
      if (on) {
        line.textContent = "";
        var what = document.createElement("span");
        what.textContent = summary(section);
        var change = document.createElement("span");
        change.className = "change";
        change.textContent = "Change";
        line.append(what, change);
        line.setAttribute("aria-expanded", "false");
      }
    }
    section.classList.toggle("folded", !!on);
  }

  // Fold what is answered (not the section opened again, nor the one just tapped,
  // nor one with the focus in a box); then bring the section being answered into view.
  function follow(f, moved) {
    var first = null, clash = f.querySelector(".clash");  // another phone's answer, said beside its question
    sections(f).forEach(function (section) {
      var answered = titled(section) && done(section) && !section.classList.contains("unchecked");
      // the section just tapped stays open until a tap elsewhere (a second gleek, a changed mind)
      var keep = section === opened || section === lastTapped || (clash && section.contains(clash)) ||
        section.contains(document.activeElement) && document.activeElement.matches("input.typed");
      fold(section, answered && !keep);
      if (!first && titled(section) && !done(section)) first = section;
    });
    if (clash) inView(f, clash);
    else if (moved) {
      // after a chip of several (a set, a card) the scorer may tick more there: stay
      var stay = lastTapped && (!done(lastTapped) || lastSeveral);
      bring(stay ? lastTapped : first);
    }
    movedUnderThumb();
  }

  // A control, named by what it answers (a chip by its question and answer, which
  // stay the same when htmx swaps the fields in again; a button by its words and section).
  function what(element) {
    var control = element && element.closest && element.closest("label, button, summary, a, input, select, textarea");
    if (!control) return "";
    var input = control.matches("input") ? control : control.querySelector("input");
    if (input) return "input " + input.name + "=" + input.value;
    var section = control.closest("section.step");
    return control.tagName + " " + (control.id || control.textContent.trim()) + " in " + (section ? section.id : "");
  }
  // After the page moved in answer to a tap: is something else under the thumb now?
  function movedUnderThumb() {
    if (!thumb || what(document.elementFromPoint(thumb.x, thumb.y)) === thumb.what) return;
    var section = thumb.section && document.getElementById(thumb.section);
    if (section && section.getBoundingClientRect().top === thumb.top) return;
    thumb.moved = performance.now();
    thumb.at = window.scrollY;
  }
  // Would a tap at x, y land on a control the page has just moved under the thumb?
  function movedThere(x, y, here) {
    if (here === undefined) here = what(document.elementFromPoint(x, y));
    return !!(thumb && thumb.moved && performance.now() - thumb.moved < STILL_MS && window.scrollY === thumb.at &&
      Math.abs(x - thumb.x) <= REACH && Math.abs(y - thumb.y) <= REACH && here !== thumb.what);
  }
  window.addEventListener("click", function (event) {
    // a tap (never a key: its click has no count), not the label's own click on its chip
    if (!event.detail || (event.target.matches && event.target.matches("label input"))) return;
    var here = what(event.target);
    if (movedThere(event.clientX, event.clientY, here)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    var section = event.target.closest && event.target.closest("section.step[id]");
    thumb = {x: event.clientX, y: event.clientY, what: here, moved: 0,
      section: section && section.id, top: section && section.getBoundingClientRect().top};
  }, true);

  // What is above the thumb bar (fixed at the foot of the screen, when it is) and
  // above the "No connection" line over it, when that is shown.
  function bottomOfView() {
    var bar = document.querySelector(".thumb-bar"), line = document.getElementById("connection");
    var bottom = bar && getComputedStyle(bar).position === "fixed" ? bar.getBoundingClientRect().top : window.innerHeight;
    if (line && !line.hidden && getComputedStyle(line).position === "fixed") {
      bottom = Math.min(bottom, line.getBoundingClientRect().top);
    }
    return bottom;
  }
  // A clash notice and the chips it is about (where the scorer tapped) scrolled
  // just enough to be seen together; the chips first if both cannot be.
  function inView(f, clash) {
    var input = f.querySelector('input[name="' + clash.dataset.field + '"]'), group = input && input.closest(".chips");
    var top = (group || clash).getBoundingClientRect().top, end = clash.getBoundingClientRect().bottom;
    var bottom = bottomOfView();
    if (end > bottom) window.scrollBy(0, Math.min(end - bottom + 8, top - 8));
    else if (top < 0) window.scrollBy(0, top - 8);
  }

  // The section in view: whole if it fits above the thumb bar, else its first
  // question with nothing chosen yet.
  function bring(section) {
    if (!section) return;
    var bottom = bottomOfView(), box = section.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= bottom) return;
    if (box.height <= bottom) { section.scrollIntoView({block: "start"}); return; }
    var open = Array.prototype.filter.call(section.querySelectorAll(".chips[role=radiogroup]"), function (group) {
      return group.offsetParent !== null && !group.querySelector("input:checked");
    })[0];
    if (!open) return;
    var at = open.getBoundingClientRect();
    if (at.top < 0 || at.bottom > bottom) window.scrollBy(0, at.top - Math.max(0, (bottom - at.height) / 2));
  }

  document.addEventListener("click", function (event) {
    var line = event.target.closest && event.target.closest(".fold-line");
    if (!line) return;
    var section = line.closest("section.step");
    opened = section;
    fold(section, false);
    section.scrollIntoView({block: "start"});
    movedUnderThumb();
  });
  // A box typed in says "changed" when it loses the focus, that is when the scorer
  // is already tapping something else (the pad's Bid, a chip): its answer must not
  // scroll the page then, or the tap lands on whatever moved under the thumb.
  function typedBox(target) {
    return target.matches && target.matches("textarea, input:not([type=checkbox]):not([type=radio])");
  }
  function tapped(event) {
    var section = event.target.closest && event.target.closest("section.step");
    if (!section || (event.type === "click" && !event.target.closest("button"))) return;
    lastTapped = section;
    if (!(event.type === "change" && typedBox(event.target))) tappedSince = true;
    lastSeveral = event.target.type === "checkbox";
    if (opened && opened !== section) opened = null;
  }
  document.addEventListener("change", tapped, true);
  document.addEventListener("click", tapped, true);   // a pad's call, a preset
  document.addEventListener("htmx:afterSettle", function () {
    var f = G.form();
    if (f) follow(f, tappedSince);
    tappedSince = false;
  });

  // Sections with answers this phone changed since the server last answered, while
  // the connection is away: marked (and never folded) until the server has them.
  function unchecked(f) {
    var kept = G.store.read(f) || {};
    (kept.changed || []).forEach(function (name) {
      var input = f.querySelector('[name="' + name + '"]'), section = input && input.closest("section.step");
      if (!section || section.classList.contains("unchecked")) return;
      section.classList.add("unchecked");
      fold(section, false);
      var note = document.createElement("p");
      note.className = "unchecked-note";
      note.textContent = UNCHECKED;
      var status = section.querySelector(":scope > .step-status");
      section.insertBefore(note, status);
    });
    noteInView();
  }
  // The "Not checked yet" line of the section just tapped, added below the thumb as
  // the "No connection" line comes up over the foot of the screen: scrolled just
  // above it (the one move of the page then, said to the double-tap guard), so the
  // scorer sees both.
  function noteInView() {
    var notes = lastTapped ? lastTapped.querySelectorAll(".unchecked-note") : [];
    var note = notes[notes.length - 1];
    if (!note || note.offsetParent === null) return;
    var box = note.getBoundingClientRect(), bottom = bottomOfView();
    if (box.bottom <= bottom || box.top < 0) return;
    window.scrollBy(0, Math.min(box.bottom - bottom + 8, box.top));
    movedUnderThumb();
  }
  function checked(f) {
    f.querySelectorAll("section.step.unchecked").forEach(function (section) { section.classList.remove("unchecked"); });
    f.querySelectorAll(".unchecked-note:not(.pad-note)").forEach(function (note) { note.remove(); });
  }
  document.addEventListener("change", function (event) {
    var f = G.form();
    if (f && f.contains(event.target) && G.queue && G.queue.isOffline()) setTimeout(function () { unchecked(f); }, 0);
  });

  // Nothing folds when the page opens: the page is drawn before this script runs
  // (on a slow phone, a second before), so folding then moved the chips under the
  // scorer's thumb. The sections fold in answer to the next tap.
  G.sections = {follow: follow, unchecked: unchecked, checked: checked, movedThere: movedThere, noteInView: noteInView};
})();
