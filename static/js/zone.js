// The viewer's time zone, for the times the server writes (History, the sheet's
// "printed …"): an IANA name in the cookie "tz", read by scorekeeper/words/localtime.py.
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
