"""The words the pages, the sheets and the command line share: amounts of money
(``money``), players' names (``names``), times in the viewer's zone (``localtime``)
and a season told in words (``season_text``). Below the store, the pages and the
printing alike: never Flask, the web layer, the server or the store."""
