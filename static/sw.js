// The service worker (served as /sw.js, with VERSION and ASSETS above this
// line: scorekeeper/web/offline.py). Where the browser allows one (https, or
// localhost) it lets a phone open the app with no connection at all:
// - the static files (versioned URLs) are kept at install, one cache per
//   version; a new version replaces them all and drops the old cache;
// - every page this phone opens is fetched from the network first and kept
//   (its last copy: static/offline.js sends the page as shown when the phone
//   leaves it); with no connection the kept copy is shown, marked as such
//   (<html data-offline-copy="time">), and the hand form's taps queue on the
//   phone as they do online (static/js/queue.js; the call pads from their
//   prepared states, static/js/pads.js);
// - the page "Next hand" opens is fetched while the table page is shown
//   (offline.js "keep"), so with no connection it is the next hand as the
//   server draws it, not a copy of the hand last saved;
// - nothing else is touched: htmx's requests and every POST go to the network.
"use strict";

var STATIC = "gleek-static-" + VERSION;
var PAGES = "gleek-pages";        // kept across versions: refreshed when a new version comes
var MOST_PAGES = 60;              // the pages kept, newest first
var NETWORK_WAIT = 4000;          // ms before a page that gets no answer is shown from the phone
var SAVED = "x-gleek-saved";      // when a kept page was kept (ms since 1970)

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) { return cache.addAll(ASSETS); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("gleek-static-") === 0 && name !== STATIC;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }).then(refreshPages));
});

// After an update the kept pages still name the old files: fetch each again
// (it is online: it just fetched this worker); one that fails stays as it was.
function refreshPages() {
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (request) {
        return fetch(request.url, {credentials: "same-origin"}).then(function (response) {
          if (isPage(response)) return stamped(response).then(function (copy) { return cache.put(request.url, copy); });
        }).catch(function () {});
      }));
    });
  });
}

function isPage(response) {
  return response && response.status === 200 && response.type === "basic" &&
    (response.headers.get("content-type") || "").indexOf("text/html") === 0;
}

function stamped(response, body) {
  var headers = new Headers(response.headers);
  headers.set(SAVED, String(Date.now()));
  return body === undefined ? response.blob().then(function (blob) {
    return new Response(blob, {status: 200, headers: headers});
  }) : new Response(body, {status: 200, headers: headers});
}

function keepPage(url, response) {
  return caches.open(PAGES).then(function (cache) {
    return Promise.resolve(stamped(response)).then(function (copy) { return cache.put(url, copy); })
      .then(function () { return trim(cache); });
  });
}

function trim(cache) {
  return cache.keys().then(function (requests) {
    if (requests.length <= MOST_PAGES) return;
    return Promise.all(requests.map(function (request) {
      return cache.match(request).then(function (r) { return [request, Number(r && r.headers.get(SAVED)) || 0]; });
    })).then(function (aged) {
      aged.sort(function (a, b) { return a[1] - b[1]; });
      return Promise.all(aged.slice(0, aged.length - MOST_PAGES).map(function (a) { return cache.delete(a[0]); }));
    });
  });
}

// A kept page, marked as the copy last seen (offline.js says so on the page).
function keptPage(url) {
  return caches.open(PAGES).then(function (cache) { return cache.match(url, {ignoreVary: true}); }).then(function (kept) {
    if (!kept) return offlinePage();
    var saved = kept.headers.get(SAVED) || "";
    return kept.text().then(function (html) {
      var marked = html.replace(/<html\b/i, '<html data-offline-copy="' + saved + '"');
      return new Response(marked, {status: 200, headers: {"content-type": "text/html; charset=utf-8"}});
    });
  });
}

function offlinePage() {
  return caches.open(STATIC).then(function (cache) {
    return cache.keys();
  }).then(function (requests) {
    var css = requests.map(function (r) { return r.url; }).filter(function (u) { return /\/static\/app\.css\?/.test(u); })[0];
    var html = '<!doctype html><html lang="en" data-offline-copy=""><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1"><title>No connection · Gleek</title>' +
      (css ? '<link rel="stylesheet" href="' + css + '">' : "") + '</head><body><main>' +
      '<h1>No connection</h1><p>This page was never opened on this phone, so there is no copy of it here. ' +
      'The tables this phone has opened can be opened without a connection.</p>' +
      '<p><a class="button" href="/">Home</a></p></main></body></html>';
    return new Response(html, {status: 503, headers: {"content-type": "text/html; charset=utf-8"}});
  });
}

function fromNetworkFirst(event) {
  var request = event.request, url = request.url.split("#")[0];
  var network = fetch(request);
  var kept = network.then(function (response) {
    if (isPage(response)) event.waitUntil(keepPage(url, response.clone()));
    return response;
  });
  event.waitUntil(kept.catch(function () {}));
  var late = new Promise(function (resolve, reject) { setTimeout(reject, NETWORK_WAIT); });
  return Promise.race([kept, late]).catch(function () { return keptPage(url); });
}

function fromCacheFirst(request) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(request).then(function (hit) {
      // the file asked for, else the same file of this version (a kept page of an older one)
      return hit || cache.match(request, {ignoreSearch: true}).then(function (same) {
        return fetch(request).then(function (response) {
          return response;
        }).catch(function (error) {
          if (same) return same;
          throw error;
        });
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate" && !/\.(pdf|json)$/.test(url.pathname)) {
    event.respondWith(fromNetworkFirst(event));
  }
});

// The number of the hand a hand form is for (its hidden "number"), 0 for another page.
function handNumber(html) {
  var match = /<input type="hidden" name="number" value="(\d+)">/.exec(html);
  return match ? Number(match[1]) : 0;
}

// The page as the phone shows it when the phone leaves it (offline.js): kept
// in place of the copy fetched, so a cold start shows the table as last seen.
// Only a page already kept from the network is replaced.
// A page opened before this worker controlled it (the very first visit, a QR
// code just scanned) is fetched again to be kept ("keep").
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (typeof data.url !== "string") return;
  var url = new URL(data.url, self.location.origin);
  if (url.origin !== self.location.origin) return;
  if (data.type === "keep") {
    event.waitUntil(fetch(url.href, {credentials: "same-origin"}).then(function (response) {
      // (a page that sends elsewhere is not the page asked for)
      if (isPage(response) && !response.redirected) return keepPage(url.href.split("#")[0], response);
    }).catch(function () {}));
    return;
  }
  if (data.type !== "snapshot" || typeof data.html !== "string") return;
  event.waitUntil(caches.open(PAGES).then(function (cache) {
    var key = url.href.split("#")[0];
    return cache.match(key, {ignoreVary: true}).then(function (was) {
      if (!was) return;
      return was.clone().text().then(function (html) {
        // the copy of a hand form left after the next hand was kept (keep) is not put back over it
        if (handNumber(data.html) < handNumber(html)) return;
        return cache.put(key, stamped(was, data.html));
      });
    });
  }));
});
