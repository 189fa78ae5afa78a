"""The words the pages, the sheets and the command line share: how every amount, date
and statistics row is written (``wording``), what a counter is worth (``money``),
players' names (``names``), times in the viewer's zone (``localtime``) and a season
told in words (``season_text``). Below the store, the pages and the
printing alike: never Flask, the web layer, the server or the store."""
