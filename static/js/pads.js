// The call pads without the connection. The server renders, with each pad, its
// next states from the rule book's own replay (form/client.py pad_states: each
// state's whose turn, its legal calls, the state each leads to, and the words a
// call adds to the calls line), so the whole auction and the ruff can be tapped
// call by call offline, and no rule is written here. A call taken on the phone
// goes into the pad's list of calls (the hidden field the form posts), which is
// sent, replayed and checked by the server when the connection is back; until
// then the pad says its calls are not checked yet. Past the states prepared, a
// call is still kept, unchecked, and the pad waits for the connection.
(function () {
  var G = window.Gleek, S = G.store;
  var UNCHECKED = "Not checked yet: these calls are sent and checked when the connection is back.";
  var WAITS = "The next call can be tapped once the connection is back.";
  var REDRAWN = "The dealer changed since these calls were drawn: the next call can be tapped once the " +
    "connection is back (the server draws them for the new dealer).";

  function padFor(f, tap) { return f.querySelector('.call-pad[data-tap="' + tap + '"]'); }
  function states(pad) {
    if (!pad._states) pad._states = G.json(pad.querySelector("script.pad-states")) || [];
    return pad._states;
  }
  function listOf(f, pad) { return f.querySelector('input[name="' + pad.dataset.calls + '"]'); }
  function calls(f, pad) {
    try { return JSON.parse(listOf(f, pad).value || "[]"); } catch (e) { return null; }
  }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function init(f, pad) {
    if (pad._path) return;
    pad._path = [];            // the calls taken on this phone: [{at: state index or -1, said}]
    pad._base = (calls(f, pad) || []).length;  // the calls the server had when it drew the pad
  }
  function at(pad) { return pad._path.length ? pad._path[pad._path.length - 1].at : 0; }
  // The answers the server drew the pad's states from (data-drawn-for: the dealer) are not the form's now.
  function drawnForOthers(f, pad) {
    var drawn = {};
    try { drawn = JSON.parse(pad.dataset.drawnFor || "{}"); } catch (e) {}
    return Object.keys(drawn).some(function (name) {
      var on = f.querySelector('input[name="' + name + '"]:checked');
      return (on ? on.value : "") !== drawn[name];
    });
  }

  // Take one tap of a pad ([tap field, value]: a call's JSON, "undo", "clear" or
  // "more") on the phone. False if it is not a pad's (or the list cannot be read).
  function take(f, tapped) {
    var pad = padFor(f, tapped[0]), list = pad && calls(f, pad);
    if (!pad || !list) return false;
    if (drawnForOthers(f, pad)) { say(pad, REDRAWN); return true; }
    init(f, pad);
    var node = states(pad)[at(pad)], value = tapped[1];
    if (value === "undo" || value === "clear") {
      // a call the server already has is taken back once it can check it (never guessed here)
      if (value === "undo" ? !pad._path.length : pad._base > 0) {
        say(pad, value === "undo" ? "Undo of a call made before the connection went waits for it: tap Undo again then."
                                  : "Clear waits for the connection: tap Undo last call for the calls made since.");
        return true;
      }
      if (value === "undo") { list.pop(); pad._path.pop(); } else { list = []; pad._path = []; }
    } else {
      var call = null;
      if (value === "more") {
        var box = pad.querySelector('.pad-offline input.other-box') || pad.querySelector("input.other-box");
        var n = box ? parseInt(box.value, 10) : NaN;
        if (!node || !node.more || isNaN(n) || n < node.more.least) {
          say(pad, node && node.more ? "Type a whole number of at least " + node.more.least + "." : WAITS);
          return true;
        }
        call = node.more.word === null ? [node.more.seat, n] : [node.more.seat, node.more.word, n];
      } else {
        try { call = JSON.parse(value); } catch (e) { return false; }
      }
      var edge = node && at(pad) !== -1 ? node.calls.filter(function (c) { return same(JSON.parse(c[1]), call); })[0] : null;
      if (node && at(pad) !== -1 && !edge && !(value === "more")) {
        say(pad, "That call is not one of those offered now.");
        return true;
      }
      list.push(call);
      var typed = node && node.more ? (node.who || "").replace(/ \(.*\)$/, "") + ": " + node.more.label.replace("{n}", call[call.length - 1]) : "";
      pad._path.push({at: edge ? edge[2] : -1, said: edge ? edge[3] : typed});
    }
    var field = listOf(f, pad);
    field.value = list.length ? JSON.stringify(list) : "";
    var kept = S.read(f) || {changed: [], actions: []};
    S.write(f, {pending: true, changed: G.union(kept.changed || [], [pad.dataset.calls]),
                pads: Object.assign(kept.pads || {}, pathsOf(f))});
    draw(f, pad);
    return true;
  }

  function pathsOf(f) {
    var out = {};
    f.querySelectorAll(".call-pad[data-tap]").forEach(function (pad) {
      if (pad._path) out[pad.dataset.tap] = {path: pad._path, base: pad._base};
    });
    return out;
  }

  function say(pad, text) {
    var note = pad.querySelector(".pad-note");
    if (!note) { note = el("p", "pad-note"); note.setAttribute("role", "status"); pad.append(note); }
    note.textContent = text;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function tool(pad, value, text) {
    var b = el("button", "", text);
    b.type = "button";
    b.dataset.padTap = pad.dataset.tap;
    b.value = value;
    return b;
  }

  // The pad as the phone has it: the calls line, whose turn, the calls offered.
  function draw(f, pad) {
    var now = pad.querySelector(".pad-now"), mine = pad.querySelector(".pad-offline");
    if (!pad._path.length) {  // nothing taken here: the server's pad
      if (now) now.hidden = false;
      if (mine) mine.remove();
      quick(f, pad, null);
      return;
    }
    if (now) now.hidden = true;
    if (!mine) { mine = el("div", "pad-offline"); pad.append(mine); }
    mine.textContent = "";
    var root = states(pad)[0] || {}, index = at(pad), node = index === -1 ? null : states(pad)[index];
    var said = [root.line || ""].concat(pad._path.map(function (p) { return p.said; })).filter(Boolean);
    mine.append(el("p", "calls-line", said.join(" · ")));
    if (node && node.turn !== null && node.turn !== undefined) {
      var turn = el("p", "turn");
      turn.append(el("strong", "", node.who), " to " + node.verb);
      mine.append(turn);
      var buttons = el("div", "calls");
      node.calls.forEach(function (c) {
        var b = el("button", "call", c[0]);
        b.type = "button";
        b.dataset.padTap = pad.dataset.tap;
        b.value = c[1];
        buttons.append(b);
      });
      if (node.more) {
        var box = el("input", "other-box");
        box.inputMode = "numeric";
        box.size = 4;
        box.placeholder = String(node.more.least);
        box.setAttribute("aria-label", "another amount");
        var more = tool(pad, "more", node.more.label.replace("{n}", "").trim() || "Call");
        more.className = "call";
        var span = el("span", "more");
        span.append(box, more);
        buttons.append(span);
      }
      mine.append(buttons);
    } else if (node) {
      mine.append(el("p", "calls-result", node.end || ""));
    } else {
      mine.append(el("p", "calls-result", WAITS));
    }
    quick(f, pad, node);
    var tools = el("p", "pad-tools");
    tools.append(tool(pad, "undo", "Undo last call"), " ", tool(pad, "clear", pad.dataset.tap === "bid" ? "Clear the bids" : "Clear the calls"));
    mine.append(tools);
    var note = el("p", "pad-note unchecked-note", UNCHECKED);
    note.setAttribute("role", "status");
    mine.append(note);
  }

  // The section's quick answer (buyer and price, winner and what each paid) is
  // the calls' once they are followed; at a showdown the winner is tapped there
  // among the players who show.
  function quick(f, pad, node) {
    var block = pad.parentNode && pad.parentNode.querySelector(".quick-answer");
    if (!block) return;
    var following = pad._path.length > 0 && (calls(f, pad) || []).length > 0;
    var showing = node && node.showing;
    block.hidden = following && !showing;
    var winner = pad.dataset.winner;
    if (!winner) return;
    block.querySelectorAll('input[name="' + winner + '"]').forEach(function (input) {
      var chip = input.closest("label");
      if (chip) chip.hidden = !!(following && showing && showing.indexOf(Number(input.value)) < 0);
    });
  }

  // Offline, a tap on a pad (the server's buttons or the phone's) is taken here.
  document.addEventListener("click", function (event) {
    var f = G.form(), button = event.target.closest && event.target.closest("button");
    if (!f || !button || !f.contains(button)) return;
    var tap = button.dataset.padTap || (G.client(f).pads[button.name] ? button.name : null);
    if (!tap || !(button.dataset.padTap || G.queue.isOffline())) return;
    event.preventDefault();
    event.stopPropagation();
    // the tap is the phone's now: htmx, which remembers the button focused as the form's
    // submitter, must not send it with the next request of the form (a call twice, or refused)
    button.blur();
    if (take(f, [tap, button.value])) G.queue.waiting(f, S.read(f) || {});
  }, true);

  // A kept page shown offline, with the calls this phone took: drawn again.
  function restore(f) {
    var kept = S.read(f) || {};
    Object.keys(kept.pads || {}).forEach(function (tap) {
      var pad = padFor(f, tap);
      if (!pad) return;
      pad._path = kept.pads[tap].path || [];
      pad._base = kept.pads[tap].base || 0;
      draw(f, pad);
    });
  }

  G.pads = {take: take, restore: restore};
})();
